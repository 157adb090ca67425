import type { IEventBusModuleService } from "@medusajs/framework/types"
import type { MedusaContainer } from "@medusajs/framework/types"
import { callbackIdsOf, EMIT_GATHER_MS, queueCallbackProcessing, type CallbackReceived } from "../callback-queue"
import { CALLBACK_RECEIVED, processCallbacks } from "../../../workflows/payneteasy/process-callback"

type Message = { name: string; data: CallbackReceived }

/** The row ids an emit carries, event by event. */
const idsOf = (messages: Message[]) => messages.map((m) => callbackIdsOf(m.data))

/** An event bus whose emits stay pending until the test settles them (the seam: only `emit` is used). */
function bus() {
  const emits: Array<{ messages: Message[]; options: unknown; settle: (error?: Error) => void }> = []
  const fake = {
    emit: (messages: Message[], options: unknown) =>
      new Promise<void>((resolve, reject) => emits.push({ messages, options, settle: (e) => (e ? reject(e) : resolve()) })),
  }
  return { bus: fake as unknown as IEventBusModuleService, emits }
}

const turn = () => new Promise((r) => setImmediate(r))
/** Past the gather window of a callback queued just now (fake clock: a busy machine cannot stretch the window). */
const gathered = () => jest.advanceTimersByTimeAsync(EMIT_GATHER_MS + 15)

// The gather window is time itself: Date and timers are Jest's fake ones; setImmediate (a turn) stays real.
beforeEach(() => jest.useFakeTimers({ doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] }))
afterEach(() => jest.useRealTimers())

describe("queueing recorded callbacks for processing", () => {
  it("callbacks queued within the gather window are one emit of one payneteasy.callback.received event naming them all, delayed; callers wait for it", async () => {
    const { bus: b, emits } = bus()
    let settled = 0
    const queued = [queueCallbackProcessing(b, { id: "pnecb_1", delayMs: 1000 }).then(() => settled++)]
    await turn()
    await turn()
    queued.push(queueCallbackProcessing(b, { id: "pnecb_2", delayMs: 1000 }).then(() => settled++))
    await turn()
    expect(emits).toHaveLength(0)
    await gathered()
    expect(emits.map((e) => [e.messages, e.options])).toEqual([
      [
        [{ name: CALLBACK_RECEIVED, data: { ids: ["pnecb_1", "pnecb_2"] } }],
        { delay: 1000 },
      ],
    ])
    await turn()
    expect(settled).toBe(0)
    emits[0].settle()
    await Promise.all(queued)
    expect(settled).toBe(2)
  })

  it("a callback with a delay of 0 goes out at once, with no delay option, and takes those queued with it; two delays are two emits", async () => {
    const { bus: b, emits } = bus()
    const queued = [
      queueCallbackProcessing(b, { id: "pnecb_1", delayMs: 0 }),
      queueCallbackProcessing(b, { id: "pnecb_2", delayMs: 250 }),
      queueCallbackProcessing(b, { id: "pnecb_3", delayMs: 0 }),
    ]
    await turn()
    expect(emits.map((e) => [idsOf(e.messages), e.options])).toEqual([
      [[["pnecb_1", "pnecb_3"]], {}],
      [[["pnecb_2"]], { delay: 250 }],
    ])
    emits.forEach((e) => e.settle())
    await Promise.all(queued)
  })

  it("callbacks queued while an emit is in flight wait for it, then go out together in one emit", async () => {
    const { bus: b, emits } = bus()
    const first = queueCallbackProcessing(b, { id: "pnecb_1", delayMs: 1000 })
    await gathered()
    expect(emits).toHaveLength(1)
    // three more over several turns, while the first emit is still pending: nothing new is emitted
    const later: Promise<void>[] = []
    for (const id of ["pnecb_2", "pnecb_3", "pnecb_4"]) {
      later.push(queueCallbackProcessing(b, { id, delayMs: 1000 }))
      await turn()
    }
    expect(emits).toHaveLength(1)
    emits[0].settle()
    await first
    await gathered()
    expect(emits.map((e) => idsOf(e.messages))).toEqual([[["pnecb_1"]], [["pnecb_2", "pnecb_3", "pnecb_4"]]])
    let settled = 0
    later.forEach((p) => p.then(() => settled++))
    await turn()
    expect(settled).toBe(0)
    emits[1].settle()
    await Promise.all(later)
    expect(settled).toBe(3)
    // idle again: the next callback goes out after its own gather window
    const next = queueCallbackProcessing(b, { id: "pnecb_5", delayMs: 1000 })
    await turn()
    expect(emits).toHaveLength(2)
    await gathered()
    expect(emits).toHaveLength(3)
    emits[2].settle()
    await next
  })

  it("a failed emit fails each callback it carried, and the next ones still go out", async () => {
    const { bus: b, emits } = bus()
    const queued = [queueCallbackProcessing(b, { id: "pnecb_1", delayMs: 0 }), queueCallbackProcessing(b, { id: "pnecb_2", delayMs: 0 })]
    await turn()
    emits[0].settle(new Error("redis is down"))
    for (const p of queued) await expect(p).rejects.toThrow("redis is down")
    const next = queueCallbackProcessing(b, { id: "pnecb_3", delayMs: 0 })
    await turn()
    expect(emits.map((e) => idsOf(e.messages))).toEqual([[["pnecb_1", "pnecb_2"]], [["pnecb_3"]]])
    emits[1].settle()
    await next
  })

  it("a burst is one emit of one event per 25 callbacks, in the order they were queued", async () => {
    const { bus: b, emits } = bus()
    const ids = Array.from({ length: 60 }, (_, i) => `pnecb_${i}`)
    const queued = ids.map((id) => queueCallbackProcessing(b, { id, delayMs: 1000 }))
    await gathered()
    expect(emits).toHaveLength(1)
    expect(emits[0].messages.every((m) => m.name === CALLBACK_RECEIVED)).toBe(true)
    expect(idsOf(emits[0].messages)).toEqual([ids.slice(0, 25), ids.slice(25, 50), ids.slice(50)])
    emits[0].settle()
    await Promise.all(queued)
  })

  it("an event from before the ids list ({ id }) still names its one row", () => {
    expect(callbackIdsOf({ id: "pnecb_old" })).toEqual(["pnecb_old"])
    expect(callbackIdsOf({ ids: ["pnecb_1", "pnecb_2"] })).toEqual(["pnecb_1", "pnecb_2"])
  })
})

describe("processing the rows one event names", () => {
  const container = {} as MedusaContainer

  it("processes each row in order; a failure does not stop the rest, and the first failure is rethrown after all ran", async () => {
    const tried: string[] = []
    const process = async (_c: MedusaContainer, id: string) => {
      tried.push(id)
      if (id === "pnecb_2") throw new Error("gateway unreachable for pnecb_2")
      if (id === "pnecb_4") throw new Error("gateway unreachable for pnecb_4")
    }
    await expect(processCallbacks(container, ["pnecb_1", "pnecb_2", "pnecb_3", "pnecb_4", "pnecb_5"], process)).rejects.toThrow(
      "gateway unreachable for pnecb_2"
    )
    expect(tried).toEqual(["pnecb_1", "pnecb_2", "pnecb_3", "pnecb_4", "pnecb_5"])
  })

  it("one at a time: the next row starts only when the previous one has finished", async () => {
    let running = 0
    let most = 0
    const process = async () => {
      running++
      most = Math.max(most, running)
      await turn()
      running--
    }
    await processCallbacks(container, ["pnecb_1", "pnecb_2", "pnecb_3"], process)
    expect(most).toBe(1)
  })
})

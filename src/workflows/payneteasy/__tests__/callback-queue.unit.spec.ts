import type { IEventBusModuleService } from "@medusajs/framework/types"
import { queueCallbackProcessing } from "../callback-queue"
import { CALLBACK_RECEIVED } from "../process-callback"

type Message = { name: string; data: { id: string } }

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

describe("queueing recorded callbacks for processing", () => {
  it("the callbacks of one turn are one emit of one payneteasy.callback.received event each, delayed; callers wait for it", async () => {
    const { bus: b, emits } = bus()
    let settled = 0
    const queued = ["pnecb_1", "pnecb_2"].map((id) => queueCallbackProcessing(b, { id, delayMs: 1000 }).then(() => settled++))
    await turn()
    expect(emits.map((e) => [e.messages, e.options])).toEqual([
      [
        [
          { name: CALLBACK_RECEIVED, data: { id: "pnecb_1" } },
          { name: CALLBACK_RECEIVED, data: { id: "pnecb_2" } },
        ],
        { delay: 1000 },
      ],
    ])
    await turn()
    expect(settled).toBe(0)
    emits[0].settle()
    await Promise.all(queued)
    expect(settled).toBe(2)
  })

  it("a delay of 0 emits with no delay option; two delays in one turn are two emits", async () => {
    const { bus: b, emits } = bus()
    const queued = [
      queueCallbackProcessing(b, { id: "pnecb_1", delayMs: 0 }),
      queueCallbackProcessing(b, { id: "pnecb_2", delayMs: 250 }),
      queueCallbackProcessing(b, { id: "pnecb_3", delayMs: 0 }),
    ]
    await turn()
    expect(emits.map((e) => [e.messages.map((m) => m.data.id), e.options])).toEqual([
      [["pnecb_1", "pnecb_3"], {}],
      [["pnecb_2"], { delay: 250 }],
    ])
    emits.forEach((e) => e.settle())
    await Promise.all(queued)
  })

  it("callbacks queued while an emit is in flight wait for it, then go out together in one emit", async () => {
    const { bus: b, emits } = bus()
    const first = queueCallbackProcessing(b, { id: "pnecb_1", delayMs: 1000 })
    await turn()
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
    await turn()
    expect(emits.map((e) => e.messages.map((m) => m.data.id))).toEqual([["pnecb_1"], ["pnecb_2", "pnecb_3", "pnecb_4"]])
    let settled = 0
    later.forEach((p) => p.then(() => settled++))
    await turn()
    expect(settled).toBe(0)
    emits[1].settle()
    await Promise.all(later)
    expect(settled).toBe(3)
    // idle again: the next callback goes out in its own turn
    const next = queueCallbackProcessing(b, { id: "pnecb_5", delayMs: 1000 })
    await turn()
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
    expect(emits.map((e) => e.messages.map((m) => m.data.id))).toEqual([["pnecb_1", "pnecb_2"], ["pnecb_3"]])
    emits[1].settle()
    await next
  })
})

/**
 * payment-ledger.ts on a store it controls: the latest data wins over what Medusa handed the call, the write-back
 * mark makes the next call wait for Medusa's late write-back, the wait is bounded in counted steps (no wall clock).
 * The store merges every write into the stored object, as Medusa's repository does (`mergeObjectProperties`).
 */
import { onLatestPaymentData, WRITE_BACK_MARK, withoutWriteBackMark, type PaymentLedgerStore } from "../payment-ledger"

type Data = Record<string, unknown>

function memoryStore(initial?: Data) {
  let row = initial
  let chain = Promise.resolve()
  const writes: Data[] = []
  const store: PaymentLedgerStore & { row(): Data | undefined; set(d: Data): void; writes: Data[] } = {
    lock: <T>(job: () => Promise<T>) => {
      const run = chain.then(job)
      chain = run.then(() => undefined, () => undefined)
      return run
    },
    read: async () => row,
    write: async (d) => {
      writes.push(d)
      row = { ...row, ...d }
    },
    row: () => row,
    set: (d) => (row = { ...row, ...d }),
    writes,
  }
  return store
}

const append = (key: string, id: string) => async (d: Data) => ({ ...d, [key]: [...((d[key] as string[]) ?? []), id] })

describe("onLatestPaymentData", () => {
  it("runs on the stored data, not the stale copy it was given; stores the answer marked and hands Medusa the mark null", async () => {
    const store = memoryStore({ refunds: ["r1"] })
    const answer = await onLatestPaymentData(store, { refunds: [] }, append("refunds", "r2"), { sleep: async () => undefined })
    expect(answer).toEqual({ refunds: ["r1", "r2"], [WRITE_BACK_MARK]: null })
    expect(store.row()).toEqual({ refunds: ["r1", "r2"], [WRITE_BACK_MARK]: expect.any(String) })
    store.set(answer) // Medusa's write-back, merged: the null clears the mark (a key left out would survive the merge)
    let waited = 0
    await onLatestPaymentData(store, {}, append("refunds", "r3"), { sleep: async () => void waited++ })
    expect(waited).toBe(0)
  })

  it("a second call waits for Medusa's write-back of the first answer, then runs on it (nothing lost)", async () => {
    const store = memoryStore({ refunds: [] })
    const sleeps: number[] = []
    // Medusa: the first call's answer, written back after the second call has started waiting
    const first = await onLatestPaymentData(store, {}, append("refunds", "a"))
    let medusaWroteBack = false
    const sleep = async (ms: number) => {
      sleeps.push(ms)
      if (sleeps.length === 3) {
        store.set(first) // the late write-back: same data, no mark
        medusaWroteBack = true
      }
    }
    const second = await onLatestPaymentData(store, { refunds: [] }, async (d) => {
      expect(medusaWroteBack).toBe(true)
      return append("refunds", "b")(d)
    }, { sleep, pollMs: 50 })
    expect(sleeps).toEqual([50, 50, 50])
    expect(second).toEqual({ refunds: ["a", "b"], [WRITE_BACK_MARK]: null })
    // the second answer is what Medusa will write back now: both entries
    store.set(second)
    expect(store.row()).toEqual({ refunds: ["a", "b"], [WRITE_BACK_MARK]: null })
  })

  it("without the wait, the first call's late write-back would drop the second's entry (why the mark exists)", async () => {
    const store = memoryStore({ refunds: [] })
    const first = await onLatestPaymentData(store, {}, append("refunds", "a"))
    const second = await onLatestPaymentData(store, {}, append("refunds", "b"), { writeBackWaitMs: 0 })
    store.set(first) // Medusa's write-back of the first, landing after the second stored its answer
    expect(second.refunds).toEqual(["a", "b"])
    expect(store.row()!.refunds).toEqual(["a"])
  })

  it("a mark that never goes (Medusa's write-back failed) is waited for a bounded number of steps, then ignored", async () => {
    const store = memoryStore({ refunds: ["a"], [WRITE_BACK_MARK]: "stale" })
    let steps = 0
    const answer = await onLatestPaymentData(store, {}, append("refunds", "b"), { sleep: async () => void steps++, writeBackWaitMs: 1000, pollMs: 50 })
    expect(steps).toBe(20)
    expect(answer.refunds).toEqual(["a", "b"])
  })

  it("a job that changes nothing writes nothing; a job that throws writes nothing and the lock is free again", async () => {
    const store = memoryStore({ refunds: ["a"] })
    expect(await onLatestPaymentData(store, {}, async (d) => d)).toEqual({ refunds: ["a"] })
    await expect(onLatestPaymentData(store, {}, async () => Promise.reject(new Error("RETURN refused")))).rejects.toThrow(/refused/)
    expect(store.writes).toEqual([])
    expect((await onLatestPaymentData(store, {}, append("refunds", "b"))).refunds).toEqual(["a", "b"])
  })

  it("with nothing stored it runs on what it was given; reconciliation's writes leave no mark", async () => {
    const store = memoryStore(undefined)
    const answer = await onLatestPaymentData(store, { refunds: ["g"] }, append("refunds", "r"), { awaitsWriteBack: false })
    expect(answer).toEqual({ refunds: ["g", "r"] })
    expect(store.row()).toEqual({ refunds: ["g", "r"], [WRITE_BACK_MARK]: null })
    expect(withoutWriteBackMark({ a: 1, [WRITE_BACK_MARK]: "x" })).toEqual({ a: 1 })
  })

  it("calls under one lock run one after the other, each on the one before's answer", async () => {
    const store = memoryStore({ refunds: [] })
    const writeBack = async (id: string) => store.set(await onLatestPaymentData(store, {}, append("refunds", id), { sleep: async () => undefined }))
    await Promise.all(["a", "b", "c"].map(writeBack))
    expect(withoutWriteBackMark(store.row()!)).toEqual({ refunds: ["a", "b", "c"] })
  })
})

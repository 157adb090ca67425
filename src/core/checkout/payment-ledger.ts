/**
 * One money call of a Payment at a time, always on the Payment's latest data: the rule that keeps the plugin's ledger
 * in payment.data whole when two captures, two refunds, or a capture and a refund of one Payment run at once.
 *
 * Why this exists: the payment module (2.21.2 capturePayment / refundPayment / cancelPayment) reads payment.data,
 * calls the provider outside its row lock, and writes the provider's answer back. Two calls at once get the same data,
 * and the later write-back drops the earlier one's ledger entry (the money model, seed 8: one of two concurrent
 * refunds lost from payment.data, so reconciliation never followed it); the gateway also refuses a second follow-up
 * while the first is still processing. So each call takes the Payment's lock, reads the stored data (not the copy
 * Medusa handed it), runs, and stores its answer at once.
 *
 * The write-back mark: the answer is stored with `ledgerWriteBack` set, and handed to Medusa with it null. Medusa's own
 * write-back, a moment later, is the same data with the mark null: its repository merges an update into the stored
 * object (`mergeObjectProperties`), so a key left out would survive and only an explicit null clears it (the money
 * model's seed 8: a refund after a capture waited out the whole bound). A call that finds the mark still set knows
 * Medusa has not written the previous answer back yet, which would overwrite whatever this call stores; it waits
 * (bounded: a write-back that never comes, because Medusa's update failed, leaves a stale mark, and the stored data is the truth
 * anyway). Reconciliation writes through the same rule without leaving a mark (nothing writes back after it).
 */

/** The key in payment.data that says "Medusa has not written this answer back yet" (a provider-only key). */
export const WRITE_BACK_MARK = "ledgerWriteBack"

type Data = Record<string, unknown>

/** Where a Payment's data is read and written, and the lock that serializes its money calls. */
export interface PaymentLedgerStore {
  lock<T>(job: () => Promise<T>): Promise<T>
  read(): Promise<Data | undefined>
  write(data: Data): Promise<void>
}

export interface LedgerOptions {
  /** How long to wait for Medusa's write-back of the previous answer (ms). */
  writeBackWaitMs?: number
  pollMs?: number
  sleep?: (ms: number) => Promise<void>
  /** Whether Medusa writes this call's answer back (provider calls: yes; reconciliation: no, so no mark is left). */
  awaitsWriteBack?: boolean
}

/** Whether Medusa still owes the write-back of the answer stored in `data`. */
export function awaitsWriteBack(data: Data | undefined): boolean {
  return !!data?.[WRITE_BACK_MARK]
}

export function withoutWriteBackMark(data: Data): Data {
  if (!(WRITE_BACK_MARK in data)) return data
  const { [WRITE_BACK_MARK]: _mark, ...rest } = data
  return rest
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Runs `job` on the Payment's latest stored data (or `given` when nothing is stored) under the Payment's lock, stores
 * its answer when it changed anything, and returns the answer for Medusa to write back (the mark null). A job that
 * throws stores nothing.
 */
export async function onLatestPaymentData(
  store: PaymentLedgerStore,
  given: Data,
  job: (latest: Data) => Promise<Data>,
  { writeBackWaitMs = 10_000, pollMs = 50, sleep = defaultSleep, awaitsWriteBack: writeBack = true }: LedgerOptions = {}
): Promise<Data> {
  return store.lock(async () => {
    let stored = await store.read()
    // counted steps, not the wall clock: a busy machine waits as many polls as a quiet one
    for (let waited = 0; awaitsWriteBack(stored) && waited < writeBackWaitMs; waited += pollMs) {
      await sleep(pollMs)
      stored = await store.read()
    }
    const latest = stored ? withoutWriteBackMark(stored) : withoutWriteBackMark(given)
    const answer = withoutWriteBackMark(await job(latest))
    if (JSON.stringify(answer) === JSON.stringify(latest)) return answer
    await store.write({ ...answer, [WRITE_BACK_MARK]: writeBack ? new Date().toISOString() : null })
    return writeBack ? { ...answer, [WRITE_BACK_MARK]: null } : answer
  })
}

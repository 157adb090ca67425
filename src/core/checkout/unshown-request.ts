/**
 * One rule for the next money request on a gateway order while an earlier one may still be on its way: a capture,
 * return or void whose reply was lost and which STATUS does not show yet (pending, no serial number: follow-up.ts)
 * keeps every other capture, return and void of that order from being sent, until STATUS shows it or the processing
 * window has passed since it was sent (then it is a person's: an attention item, and it no longer blocks).
 *
 * Why: STATUS without a serial number describes the order's latest transaction only. A later request becomes that
 * latest transaction, and the earlier one can then never be shown: reconciliation cannot tell whether it moved money,
 * and a capture the gateway made is left for a person as if it might not have been (found by the fault trials,
 * seed 20261123, in stop 62's CI: partial captures, one held by a slow gateway, then a refund).
 */
import { MedusaError } from "@medusajs/framework/utils"
import { pendingLedgerEntries, type PendingLedgerEntry } from "./session-data"

const KIND_WORD: Record<PendingLedgerEntry["kind"], string> = { capture: "capture", refund: "refund", void: "release of the hold" }

/** The entry (if any) that STATUS does not show yet and whose processing window is still open at `now`. */
export function unshownRequest(data: Record<string, unknown> | undefined, now: Date, windowMs: number): PendingLedgerEntry | undefined {
  return pendingLedgerEntries(data).find((e) => {
    if (e.serialNumber) return false // STATUS asks for it by its serial number
    const sent = e.sentAt ? Date.parse(e.sentAt) : NaN
    return Number.isFinite(sent) && now.getTime() - sent < windowMs
  })
}

/** Throws (400, in words; nothing is sent) while an earlier request of this order is not shown by STATUS yet. */
export function refuseWhileUnshown(data: Record<string, unknown> | undefined, now: Date, windowMs: number, what: string): void {
  const waiting = unshownRequest(data, now, windowMs)
  if (!waiting) return
  const amount = waiting.amount ? ` of ${waiting.amount}${waiting.currency ? ` ${waiting.currency.toUpperCase()}` : ""}` : ""
  throw new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `PaynetEasy ${what}: an earlier ${KIND_WORD[waiting.kind]}${amount} may still be processing at the gateway and is not confirmed yet, ` +
      `so nothing was sent. Try again in a few minutes, once it is confirmed.`
  )
}

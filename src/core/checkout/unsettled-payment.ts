/**
 * No order cancel while a capture or refund of its PaynetEasy payment is undecided at the gateway. Medusa 2.21.2's
 * cancelOrderWorkflow refunds what its Capture rows say was captured; a capture still pending at a slow gateway (or
 * still waiting for the Payment's ledger lock) is not refundable yet (refund-room.ts), the refund is refused, and
 * Medusa swallows that refusal and books the refund on the order anyway: the order summary shows money refunded that
 * never went back, and the authorization stays held (found from outside, issue 49). Refused in words instead, until
 * reconciliation has settled the capture; then the cancel runs as Medusa means it to.
 */
import { confirmedCaptureIds } from "./refund-room"
import { pendingLedgerEntries } from "./session-data"

export type CancelablePayment = { id: string; provider_id: string; data?: Record<string, unknown> | null; captures?: Array<{ id: string }> }

/** The words of the refusal, or undefined when every PaynetEasy payment of the order is settled at the gateway. */
export function unsettledPaymentRefusal(orderId: string, payments: CancelablePayment[]): string | undefined {
  for (const p of payments) {
    if (!p.provider_id.startsWith("pp_payneteasy_")) continue
    const data = p.data ?? undefined
    const pending = pendingLedgerEntries(data).length
    const confirmed = confirmedCaptureIds(data)
    const inFlight = confirmed === "all" ? 0 : (p.captures ?? []).filter((c) => !confirmed.has(c.id)).length
    if (pending + inFlight > 0) {
      return (
        `Order ${orderId} cannot be canceled yet: a capture or refund of its payment ${p.id} is not confirmed by the gateway ` +
        `yet, and Medusa's cancel would book a refund of money that may not be captured. Nothing was changed; cancel it ` +
        `again once the payment is settled (reconciliation does that by itself).`
      )
    }
  }
  return undefined
}

/**
 * What an order cancel must settle before Medusa runs it, for the order's PaynetEasy payments. Medusa 2.21.2's
 * cancelOrderWorkflow refunds what its Capture rows say was captured (refundPaymentsWorkflow), and books every refund
 * on the order whether or not it succeeded: its step catches a refund's error and only logs it. So:
 * - a capture or refund still undecided at the gateway (pending at a slow gateway, or a Capture row still waiting for
 *   the Payment's ledger lock) refuses the cancel in words: its refund would be refused (refund-room.ts) and booked
 *   anyway (found from outside, issue 49: summary refunded 10, no Refund row, the authorization held);
 * - money captured and not refunded is returned first, through Medusa's own refund workflow, which books a refund
 *   only when it is made and fails loudly otherwise (found by the money model, seed 20261202: a sale's cancel whose
 *   STATUS snapshot was unreadable left "refunded 10.42" on a canceled order whose money was still captured). Medusa's
 *   cancel then finds nothing left to refund. Only when Medusa would cancel the order at all (its own validation,
 *   mirrored in `medusaWouldCancel`): an order it refuses gets its refusal, and nothing is returned.
 * - a hold still live at the gateway is released first too, and the order is canceled only once the gateway has
 *   confirmed the release (`holdsBeforeCancel`). Medusa voids only payments with no capture at all, inside its cancel,
 *   and cancels the order whatever the VOID's outcome: the rest of a partly captured preauth stayed held, and a VOID
 *   still processing (then declined) left the whole hold on the card of a canceled order (found from outside, issue 49).
 */
import type { BigNumberInput } from "@medusajs/framework/types"
import { fromMinorUnits } from "../../gateway/money"
import { rowsMinor, toMinor } from "./amounts"
import { confirmedCaptureIds } from "./refund-room"
import { holdReleased } from "./hold-release"
import { pendingLedgerEntries } from "./session-data"

type Money = { amount?: BigNumberInput; raw_amount?: BigNumberInput }
export type CancelablePayment = {
  id: string
  provider_id: string
  currency_code?: string
  raw_amount?: BigNumberInput
  data?: Record<string, unknown> | null
  captures?: Array<{ id: string } & Money>
  refunds?: Array<{ id: string } & Money>
}
export type CancelableOrder = { id: string; status?: string | null; fulfillments?: Array<{ canceled_at?: string | Date | null }> }

const isOurs = (p: CancelablePayment) => p.provider_id.startsWith("pp_payneteasy_")

/** The words of the refusal, or undefined when every PaynetEasy payment of the order is settled at the gateway. */
export function unsettledPaymentRefusal(orderId: string, payments: CancelablePayment[]): string | undefined {
  for (const p of payments) {
    if (!isOurs(p)) continue
    const data = p.data ?? undefined
    const pending = pendingLedgerEntries(data).length
    const confirmed = confirmedCaptureIds(data)
    const inFlight = confirmed === "all" ? 0 : (p.captures ?? []).filter((c) => !confirmed.has(c.id)).length
    if (pending + inFlight > 0) {
      return (
        `Order ${orderId} cannot be canceled yet: a capture, refund or release of its payment ${p.id} is not confirmed by the gateway ` +
        `yet, and Medusa's cancel would book a refund of money that may not be captured. Nothing was changed; cancel it ` +
        `again once the payment is settled (reconciliation settles it with the gateway by itself).`
      )
    }
  }
  return undefined
}

/** Medusa's own cancel validation (cancelValidateOrder, core-flows 2.21.2): not canceled, not completed, no live fulfillment. */
export function medusaWouldCancel(order: CancelableOrder): boolean {
  return order.status !== "canceled" && order.status !== "completed" && !(order.fulfillments ?? []).some((f) => !f.canceled_at)
}

/**
 * The payments whose hold the gateway may still keep: an authorization not all captured whose release (void, or the
 * full return that stands in for it) is not confirmed. A release the gateway declined is released again; one still
 * pending is unsettledPaymentRefusal's. A sale's money is all captured: it has no hold, only refunds.
 */
export function holdsBeforeCancel(payments: CancelablePayment[]): string[] {
  return payments
    .filter((p) => isOurs(p) && !!p.currency_code && !holdReleased(p.data ?? undefined))
    .filter((p) => {
      const amount = toMinor((p.raw_amount ?? 0) as BigNumberInput, p.currency_code!)
      const captured = rowsMinor(p.captures, p.currency_code!)
      return !!p.data?.orderId && p.data?.transactionType !== "sale" && amount > captured
    })
    .map((p) => p.id)
}

/** The refunds to make before the cancel: each PaynetEasy payment's captured − refunded, exactly, as a decimal string. */
export function refundsBeforeCancel(payments: CancelablePayment[]): Array<{ payment_id: string; amount: string }> {
  const out: Array<{ payment_id: string; amount: string }> = []
  for (const p of payments) {
    if (!isOurs(p) || !p.currency_code) continue
    const left = rowsMinor(p.captures, p.currency_code) - rowsMinor(p.refunds, p.currency_code)
    if (left > 0n) out.push({ payment_id: p.id, amount: fromMinorUnits(left, p.currency_code) })
  }
  return out
}

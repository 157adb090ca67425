/**
 * The reconciliation step that takes back Medusa's record of a capture, refund or release (VOID) the gateway declined
 * after Medusa had booked it (the request was still processing when the provider answered; reconcile-ledger.ts).
 * Without it the order shows money captured (or returned) that never moved: the admin ships unpaid goods, and the
 * payment module refuses the capture that would collect the money (`captured_at` is set, the room is used up); a
 * declined release left the Payment canceled while the hold stayed on the card, and neither capture nor a real
 * release could be asked for any more.
 *
 * What it does, each part idempotent (a second run finds nothing to remove and writes the same totals):
 * - deletes the Capture / Refund row (payment module `deleteCaptures` / `deleteRefunds`, as Medusa itself does when a
 *   provider throws), and the order transaction Medusa's workflow added for it (order module
 *   `deleteOrderTransactions` through core/checkout/order-transactions.ts, which puts the order summary's paid /
 *   refunded totals right); a refund's credit line stays, so the order shows the refund as still owed to the shopper
 *   (what is true: the merchant has the money);
 * - a capture: clears the Payment's `captured_at` (it is no longer fully captured);
 * - a release: clears the Payment's `canceled_at` (Medusa's cancelPayment sets it whatever the VOID's outcome; it has no
 *   row, transaction or total of its own), so the hold can be captured or released again;
 * - writes the collection's totals and status again (core/checkout/collection-totals.ts: Medusa's own rule).
 * No compensation: a deleted row cannot be brought back as it was; it is the workflow's last write before the watch,
 * and being idempotent, a failed run is simply run again by the next tick.
 */
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { collectionTotals } from "../../../core/checkout/collection-totals"
import { removeOrderTransactions } from "../../../core/checkout/order-transactions"

export interface TakeBackInput {
  kind: "capture" | "refund" | "void"
  /** The Medusa Capture / Refund id (the ledger entry's id); unused for a release. */
  id: string
  paymentId: string
}

interface TakeBackResult {
  removed: boolean
  transactions: number
  /** The collection's status written again (a capture or refund). */
  status?: string
}

export const takeBackMedusaRecordStep = createStep(
  "payneteasy-take-back-medusa-record",
  async (input: TakeBackInput, { container }) => {
    const payments = container.resolve(Modules.PAYMENT)
    const orders = container.resolve(Modules.ORDER)
    const payment = await payments.retrievePayment(input.paymentId, {
      select: ["id", "captured_at", "canceled_at", "payment_collection_id"],
      relations: ["captures", "refunds"],
    })
    if (input.kind === "void") {
      if (payment.canceled_at) await payments.updatePayment({ id: payment.id, canceled_at: null } as Parameters<typeof payments.updatePayment>[0])
      return new StepResponse<TakeBackResult>({ removed: !!payment.canceled_at, transactions: 0 })
    }
    const rows = (input.kind === "capture" ? payment.captures : payment.refunds) ?? []
    const removed = rows.some((r) => r.id === input.id)
    if (removed) {
      if (input.kind === "capture") await payments.deleteCaptures([input.id])
      else await payments.deleteRefunds([input.id])
    }
    const transactions = await orders.listOrderTransactions({ reference: input.kind, reference_id: input.id }, { select: ["id", "order_id", "version"] })
    await removeOrderTransactions(orders, transactions)
    if (input.kind === "capture" && payment.captured_at) {
      await payments.updatePayment({ id: payment.id, captured_at: null } as Parameters<typeof payments.updatePayment>[0])
    }
    const collection = await payments.retrievePaymentCollection(payment.payment_collection_id, {
      select: ["id", "amount", "raw_amount", "currency_code"],
      relations: ["payment_sessions", "payments.captures", "payments.refunds"],
    })
    const live = collection.payments ?? []
    const totals = collectionTotals({
      amount: (collection as { raw_amount?: never }).raw_amount ?? collection.amount,
      currency: collection.currency_code,
      sessions: (collection.payment_sessions ?? []).map((s) => ({ status: s.status, amount: (s as { raw_amount?: never }).raw_amount ?? s.amount })),
      captures: live.flatMap((p) => p.captures ?? []).map((c) => (c as { raw_amount?: never }).raw_amount ?? c.amount),
      refunds: live.flatMap((p) => p.refunds ?? []).map((r) => (r as { raw_amount?: never }).raw_amount ?? r.amount),
    })
    const { completed, ...figures } = totals
    await payments.updatePaymentCollections(collection.id, {
      ...figures,
      completed_at: completed ? undefined : null,
    } as Parameters<typeof payments.updatePaymentCollections>[1])
    return new StepResponse<TakeBackResult>({ removed, transactions: transactions.length, status: totals.status })
  }
)

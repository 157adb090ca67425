/**
 * Books a Payment's captures on its order as order transactions, exactly as Medusa's own capturePaymentWorkflow (and
 * completeCartWorkflow, for a payment captured at checkout) does: one `capture` transaction per capture, referencing
 * it. The order's summary (paid total, outstanding amount) is computed from these transactions, so a payment the
 * plugin records captured outside those workflows — a renewal order's, an admin rebill's — shows nothing outstanding
 * only once this ran. Captures that already have their transaction are skipped: calling it again adds nothing, and
 * the read and the write run under the order's booking lock, so two callers at once (a callback and reconciliation
 * settling the same payment-link session, an admin rebill and its own callback) still add each transaction once.
 */
import type { BigNumberInput, CreateOrderTransactionDTO, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { LOCK_KEYS } from "../locks/lock-keys"

const LOCK_TIMEOUT_S = 30

export async function bookCapturesOnOrder(container: MedusaContainer, orderId: string, paymentId: string): Promise<void> {
  await container.resolve(Modules.LOCKING).execute(LOCK_KEYS.orderBooking(orderId), () => bookMissing(container, orderId, paymentId), {
    timeout: LOCK_TIMEOUT_S,
  })
}

async function bookMissing(container: MedusaContainer, orderId: string, paymentId: string): Promise<void> {
  const payment = await container.resolve(Modules.PAYMENT).retrievePayment(paymentId, { relations: ["captures"] })
  const captures = (payment.captures ?? []) as Array<{ id: string; amount: BigNumberInput; raw_amount?: BigNumberInput }>
  if (!captures.length) return
  const orders = container.resolve(Modules.ORDER)
  const booked = await orders.listOrderTransactions(
    { order_id: orderId, reference_id: captures.map((c) => c.id) } as Record<string, unknown>,
    { select: ["reference_id"] }
  )
  const have = new Set(booked.map((t) => t.reference_id))
  const missing = captures.filter((c) => !have.has(c.id))
  if (!missing.length) return
  await orders.addOrderTransactions(
    missing.map((c) => ({
      order_id: orderId, amount: c.raw_amount ?? c.amount, currency_code: payment.currency_code, reference: "capture", reference_id: c.id,
    })) satisfies CreateOrderTransactionDTO[]
  )
}

/**
 * Reconciliation's repair of order transactions that disagree with the Capture or Refund they name.
 *
 * Medusa's capturePaymentWorkflow (and refundPaymentWorkflow) books an order transaction for every Capture (Refund)
 * row of the payment that has none yet, each with ITS request's amount, not only the one it made. So two at once go
 * wrong two ways: when the second's provider call is refused (a capture behind one not shown by STATUS yet,
 * core/checkout/unshown-request.ts; a decline), the first workflow books the second's row before the payment module
 * deletes it (the money model, seed 20261202: "order summary paid 0.20, captures 0.10", nothing at the gateway); and
 * when both go through with different amounts (4 and 6.42), both are booked with one of them (paid 8, found from
 * outside; the admin's captures and refunds of an order now take turns, api/admin-money-serial.ts, and this repairs
 * what slips past). No Medusa event follows, so each tick looks at the orders of the PaynetEasy payments updated within
 * the reconciliation window: a transaction whose row is gone, or booked twice, is removed; one of another amount is
 * removed and booked again with its row's amount (core/checkout/order-transactions.ts; the summary follows). A row
 * always exists before Medusa books its transaction, so a transaction whose row is gone is never one still being
 * made. A row with no transaction, and the summary itself, are left alone: writing them raced Medusa's own workflows
 * (an order's cart completion or exchange booked in between: found by CI in stop 62).
 */
import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { GIVE_UP_AFTER_MS } from "./backoff"
import { MONEY_REFERENCES, removeOrderTransactions, transactionRepairs, type MoneyRow, type TransactionRow } from "../checkout/order-transactions"

/** Payments looked at per tick, at most (the most recently updated first). */
export const REPAIR_CHECK_LIMIT = 100

/** Corrects the capture / refund transactions of recently paid orders; how many transactions changed. */
export async function repairOrderTransactions(container: MedusaContainer, now: Date, providerIds: string[]): Promise<number> {
  if (!providerIds.length) return 0
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: payments } = await query.graph({
    entity: "payment",
    fields: ["id", "payment_collection_id"],
    filters: { provider_id: providerIds, updated_at: { $gte: new Date(now.getTime() - GIVE_UP_AFTER_MS) } } as Record<string, unknown>,
    pagination: { take: REPAIR_CHECK_LIMIT, order: { updated_at: "DESC" } } as Record<string, unknown>,
  })
  const collectionIds = [...new Set((payments as Array<{ payment_collection_id: string }>).map((p) => p.payment_collection_id))]
  if (!collectionIds.length) return 0
  const { data: links } = await query.graph({ entity: "order_payment_collection", fields: ["order_id"], filters: { payment_collection_id: collectionIds } })
  const orderIds = [...new Set((links as Array<{ order_id: string }>).map((l) => l.order_id))]
  if (!orderIds.length) return 0
  const orders = container.resolve(Modules.ORDER)
  const transactions = await orders.listOrderTransactions(
    { order_id: orderIds, reference: [...MONEY_REFERENCES] },
    { select: ["id", "order_id", "version", "reference", "reference_id", "amount", "raw_amount", "currency_code"] }
  )
  // Every Capture and Refund of these orders, whatever their provider: a transaction names one of them or none.
  const { data: allLinks } = await query.graph({ entity: "order_payment_collection", fields: ["payment_collection_id"], filters: { order_id: orderIds } })
  const { data: orderPayments } = await query.graph({
    entity: "payment",
    fields: ["id", "captures.id", "captures.raw_amount", "refunds.id", "refunds.raw_amount"],
    filters: { payment_collection_id: [...new Set((allLinks as Array<{ payment_collection_id: string }>).map((l) => l.payment_collection_id))] },
  })
  const rows = new Map<string, MoneyRow>()
  type PaymentRows = { captures?: Array<{ id: string; raw_amount: BigNumberInput }>; refunds?: Array<{ id: string; raw_amount: BigNumberInput }> }
  for (const p of orderPayments as PaymentRows[]) {
    for (const c of p.captures ?? []) rows.set(c.id, { id: c.id, kind: "capture", amount: c.raw_amount })
    for (const r of p.refunds ?? []) rows.set(r.id, { id: r.id, kind: "refund", amount: r.raw_amount })
  }
  const { remove, add } = transactionRepairs(transactions as TransactionRow[], rows)
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  if (remove.length) {
    await removeOrderTransactions(orders, remove)
    if (add.length) await orders.addOrderTransactions(add)
    logger.warn(
      `PaynetEasy: corrected the order transactions of captures and refunds Medusa deleted, booked twice or booked with another's amount ` +
        `(removed: ${remove.map((t) => `${t.reference} ${t.reference_id} on ${t.order_id}`).join(", ") || "none"}; booked: ${add.map((a) => `${a.reference} ${a.reference_id} ${a.amount}`).join(", ") || "none"})`
    )
  }
  return remove.length + add.length
}

/**
 * Reconciliation's repair of order transactions that name a Capture or Refund Medusa no longer has.
 *
 * Medusa's capturePaymentWorkflow (and refundPaymentWorkflow) books an order transaction for every Capture (Refund)
 * row of the payment it reads back after its own provider call, not only for the one it made. When two captures of a
 * payment run at once and the second's provider call is refused (a capture behind one not shown by STATUS yet,
 * core/checkout/unshown-request.ts; a decline), the first workflow can read the second's row before the payment module
 * deletes it, and books it: the order summary then says paid what nobody paid (the money model, seed 20261202:
 * "order summary paid 0.20, captures 0.10", nothing at the gateway). No Medusa event follows the deletion, so each
 * tick looks at the orders of the PaynetEasy payments updated within the reconciliation window and removes such
 * transactions (core/checkout/order-transactions.ts: the summary loses them too). A Capture / Refund row always
 * exists before Medusa books its transaction, so a transaction whose row is gone is never one still being made.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { GIVE_UP_AFTER_MS } from "./backoff"
import { MONEY_REFERENCES, orphanedTransactions, removeOrderTransactions } from "../checkout/order-transactions"

/** Orders looked at per tick, at most (the most recently updated payments' first). */
export const ORPHAN_CHECK_LIMIT = 100

/** Removes the orphaned capture / refund transactions of recently paid orders; how many were removed. */
export async function removeOrphanedTransactions(container: MedusaContainer, now: Date, providerIds: string[]): Promise<number> {
  if (!providerIds.length) return 0
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: payments } = await query.graph({
    entity: "payment",
    fields: ["id", "payment_collection_id"],
    filters: { provider_id: providerIds, updated_at: { $gte: new Date(now.getTime() - GIVE_UP_AFTER_MS) } } as Record<string, unknown>,
    pagination: { take: ORPHAN_CHECK_LIMIT, order: { updated_at: "DESC" } } as Record<string, unknown>,
  })
  const collectionIds = [...new Set((payments as Array<{ payment_collection_id: string }>).map((p) => p.payment_collection_id))]
  if (!collectionIds.length) return 0
  const { data: links } = await query.graph({ entity: "order_payment_collection", fields: ["order_id"], filters: { payment_collection_id: collectionIds } })
  const orderIds = [...new Set((links as Array<{ order_id: string }>).map((l) => l.order_id))]
  if (!orderIds.length) return 0
  const orders = container.resolve(Modules.ORDER)
  const transactions = await orders.listOrderTransactions(
    { order_id: orderIds, reference: [...MONEY_REFERENCES] },
    { select: ["id", "order_id", "version", "reference", "reference_id"] }
  )
  if (!transactions.length) return 0
  // Every Capture and Refund of these orders, whatever their provider: a transaction names one of them or none.
  const { data: allLinks } = await query.graph({ entity: "order_payment_collection", fields: ["payment_collection_id"], filters: { order_id: orderIds } })
  const allCollections = [...new Set((allLinks as Array<{ payment_collection_id: string }>).map((l) => l.payment_collection_id))]
  const { data: orderPayments } = await query.graph({ entity: "payment", fields: ["id", "captures.id", "refunds.id"], filters: { payment_collection_id: allCollections } })
  const live = new Set((orderPayments as Array<{ captures?: Array<{ id: string }>; refunds?: Array<{ id: string }> }>)
    .flatMap((p) => [...(p.captures ?? []), ...(p.refunds ?? [])].map((r) => r.id)))
  const orphans = orphanedTransactions(transactions, live)
  if (!orphans.length) return 0
  await removeOrderTransactions(orders, orphans)
  container.resolve(ContainerRegistrationKeys.LOGGER).warn(
    `PaynetEasy: removed ${orphans.length} order transaction(s) Medusa booked for a capture or refund it then deleted (${orphans.map((t) => `${t.reference} ${t.reference_id} on ${t.order_id}`).join(", ")})`
  )
  return orphans.length
}

/**
 * Taking an order transaction out of a Medusa order, so that its summary (paid / refunded / pending difference) loses
 * it too, and which of an order's capture / refund transactions name a Capture / Refund that no longer exists. Used by
 * reconciliation's take-back of a declined capture or refund (workflows/payneteasy/steps/take-back-medusa-record.ts)
 * and its repair of transactions Medusa booked for a Capture it then deleted (core/reconciliation/orphan-transactions.ts).
 *
 * The order module takes a deleted transaction out of the summary of the transaction's own version only
 * (`deleteOrderTransactions` → updateOrderPaidRefundableAmount_), while the order shows its current version's summary:
 * a refund adds a credit line (a new version) right after its transaction, and an edit may have come since. So a
 * transaction of an older version is first moved to the order's current version (the model's generated
 * `updateOrderTransactions`), whose summary then loses it.
 */
import type { IOrderModuleService } from "@medusajs/framework/types"

export interface TransactionRow {
  id: string
  order_id: string
  version?: number
  reference?: string | null
  reference_id?: string | null
}

/** The references a Capture's and a Refund's order transactions carry (Medusa's capture / refund workflows). */
export const MONEY_REFERENCES = ["capture", "refund"] as const

/** The order module's generated update of OrderTransaction rows (not in its public interface). */
type WithTransactionUpdate = IOrderModuleService & {
  updateOrderTransactions?: (data: Array<{ id: string; version: number }>) => Promise<unknown>
}

export async function removeOrderTransactions(orders: WithTransactionUpdate, transactions: TransactionRow[]): Promise<void> {
  if (!transactions.length) return
  const orderIds = [...new Set(transactions.map((t) => t.order_id))]
  const current = new Map((await orders.listOrders({ id: orderIds }, { select: ["id", "version"] })).map((o) => [o.id, o.version]))
  const stale = transactions.filter((t) => current.has(t.order_id) && t.version !== current.get(t.order_id))
  if (stale.length) {
    if (!orders.updateOrderTransactions) throw new Error("PaynetEasy: the order module has no updateOrderTransactions; cannot take a transaction out of the current summary")
    await orders.updateOrderTransactions(stale.map((t) => ({ id: t.id, version: current.get(t.order_id)! })))
  }
  await orders.deleteOrderTransactions(transactions.map((t) => t.id))
}

/** Pure: the capture / refund transactions whose Capture / Refund (`reference_id`) is not among `live`. */
export function orphanedTransactions(transactions: TransactionRow[], live: ReadonlySet<string>): TransactionRow[] {
  return transactions.filter((t) => (MONEY_REFERENCES as readonly string[]).includes(t.reference ?? "") && !!t.reference_id && !live.has(t.reference_id))
}

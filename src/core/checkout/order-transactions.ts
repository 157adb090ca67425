/**
 * Taking an order transaction out of a Medusa order, so that its summary (paid / refunded / pending difference) loses
 * it too, and which of an order's capture / refund transactions disagree with the Capture / Refund they name (gone,
 * another amount, or booked twice). Used by reconciliation's take-back of a declined capture or refund
 * (workflows/payneteasy/steps/take-back-medusa-record.ts) and its repair of what Medusa's own capture and refund
 * workflows book wrongly when two run at once (core/reconciliation/transaction-repair.ts).
 *
 * The order module takes a deleted transaction out of the summary of the transaction's own version only
 * (`deleteOrderTransactions` → updateOrderPaidRefundableAmount_), while the order shows its current version's summary:
 * a refund adds a credit line (a new version) right after its transaction, and an edit may have come since. So a
 * transaction of an older version is first moved to the order's current version (the model's generated
 * `updateOrderTransactions`), whose summary then loses it.
 */
import type { BigNumberInput, IOrderModuleService } from "@medusajs/framework/types"
import { decimalText, toMinor } from "./amounts"

export interface TransactionRow {
  id: string
  order_id: string
  version?: number
  reference?: string | null
  reference_id?: string | null
  amount?: BigNumberInput
  raw_amount?: BigNumberInput
  currency_code?: string
}

/** A Capture or Refund as Medusa holds it (the amount its order transaction must carry: + for a capture, − for a refund). */
export interface MoneyRow {
  id: string
  kind: (typeof MONEY_REFERENCES)[number]
  amount: BigNumberInput
}

export interface NewTransaction {
  order_id: string
  amount: string
  currency_code: string
  reference: string
  reference_id: string
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

/** Minor units of an amount's size, whatever its sign. */
const size = (a: BigNumberInput, currency: string) => toMinor(decimalText(a).replace(/^-/, ""), currency)

/**
 * Pure: what makes an order's capture / refund transactions agree with the Captures / Refunds they name — remove the
 * ones whose row is gone, the extra ones of a row booked twice, and the ones of another amount (each then added again
 * with its row's amount: + for a capture, − for a refund, in the transaction's currency). A row with no transaction
 * is left alone: it may be one Medusa is booking right now (a second booking of it races Medusa's own).
 */
export function transactionRepairs(transactions: TransactionRow[], rows: ReadonlyMap<string, MoneyRow>): { remove: TransactionRow[]; add: NewTransaction[] } {
  const remove: TransactionRow[] = []
  const add: NewTransaction[] = []
  const kept = new Set<string>()
  for (const t of transactions) {
    if (!(MONEY_REFERENCES as readonly string[]).includes(t.reference ?? "") || !t.reference_id) continue
    const row = rows.get(t.reference_id)
    if (!row || row.kind !== t.reference) {
      remove.push(t)
      continue
    }
    const currency = t.currency_code ?? ""
    const amount = t.raw_amount ?? t.amount
    const right = amount !== undefined && size(amount, currency) === size(row.amount, currency) && (row.kind === "refund") === decimalText(amount).startsWith("-")
    if (kept.has(row.id)) {
      remove.push(t)
    } else if (right) {
      kept.add(row.id)
    } else {
      remove.push(t)
      kept.add(row.id)
      const text = decimalText(row.amount).replace(/^-/, "")
      add.push({ order_id: t.order_id, amount: row.kind === "refund" ? `-${text}` : text, currency_code: currency, reference: row.kind, reference_id: row.id })
    }
  }
  return { remove, add }
}

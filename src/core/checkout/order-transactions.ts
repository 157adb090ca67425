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
import { BigNumber, MathBN } from "@medusajs/framework/utils"
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
  /** The order the row's payment belongs to, and its currency: where a missing transaction is booked. */
  order_id?: string
  currency_code?: string
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
 * with its row's amount: + for a capture, − for a refund, in the transaction's currency); and book a row that has no
 * transaction at all (Medusa's refund workflow deletes its transaction when a later step fails, and keeps the Refund:
 * the money went back).
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
  for (const row of rows.values()) {
    if (kept.has(row.id) || !row.order_id || !row.currency_code) continue
    const text = decimalText(row.amount).replace(/^-/, "")
    add.push({ order_id: row.order_id, amount: row.kind === "refund" ? `-${text}` : text, currency_code: row.currency_code, reference: row.kind, reference_id: row.id })
  }
  return { remove, add }
}

/** The four figures of an order summary's `totals` that its transactions decide (the rest is the order's own). */
const SUMMARY_FIGURES = ["paid_total", "refunded_total", "transaction_total", "pending_difference"] as const

/**
 * Pure: an order summary's `totals` made to agree with the order's transactions (all of them, every version): paid =
 * the positive ones, refunded = the negative ones' size, transaction total = their sum, and the pending difference
 * moved by as much as the transaction total moves (it is the order's total minus that). Undefined when they agree.
 * Medusa's summary is written incrementally (each transaction added or deleted moves it), so two capture or refund
 * workflows at once, or a transaction of an older version, can leave it off.
 */
export function summaryRepair(totals: Record<string, unknown>, transactions: Array<Pick<TransactionRow, "amount" | "raw_amount">>): Record<string, unknown> | undefined {
  const amounts = transactions.map((t) => decimalText((t.raw_amount ?? t.amount ?? 0) as BigNumberInput))
  const sum = (list: string[]) => list.reduce<BigNumberInput>((n, a) => MathBN.add(n, a), 0)
  const paid = sum(amounts.filter((a) => !a.startsWith("-") && a !== "0"))
  const refunded = sum(amounts.filter((a) => a.startsWith("-")).map((a) => a.slice(1)))
  const total = sum(amounts)
  const figure = (k: string) => (totals[`raw_${k}`] ?? totals[k] ?? 0) as BigNumberInput
  const agrees = MathBN.eq(figure("paid_total"), paid) && MathBN.eq(figure("refunded_total"), refunded) && MathBN.eq(figure("transaction_total"), total)
  if (agrees) return undefined
  const pending = MathBN.sub(figure("pending_difference"), MathBN.sub(total, figure("transaction_total")))
  const next: Record<string, unknown> = { ...totals }
  const values: Record<(typeof SUMMARY_FIGURES)[number], BigNumberInput> = { paid_total: paid, refunded_total: refunded, transaction_total: total, pending_difference: pending }
  for (const k of SUMMARY_FIGURES) {
    const n = new BigNumber(values[k])
    next[k] = n.numeric
    next[`raw_${k}`] = n.raw
  }
  return next
}

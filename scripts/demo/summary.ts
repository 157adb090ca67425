/**
 * The closing table: what Medusa recorded (admin API) next to what the gateway recorded (the sandbox's inspection
 * API), and a check that the two agree on the money. Sums are exact: decimal strings → integer minor units → back.
 */
import { fromMinorUnits, normalizeAmount, toMinorUnits } from "../../src/gateway/money"
import type { TransactionView } from "../../src/sandbox"
import type { MedusaPaymentView } from "./admin"
import { DemoCheckError, say } from "./steps"

export interface SummaryRow {
  label: string
  medusa: string
  gateway: string
}

function sum(amounts: string[], currency: string): string {
  return fromMinorUnits(
    amounts.reduce((acc, a) => acc + toMinorUnits(normalizeAmount(a, currency), currency), 0n),
    currency
  )
}

/** `orderTotal` is the order total at checkout (Medusa's live `total` goes down as money is refunded). */
export function summaryRows(medusa: MedusaPaymentView, gateway: TransactionView, orderTotal: string): SummaryRow[] {
  const cur = medusa.currency
  const money = (a: string) => `${normalizeAmount(a, cur)} ${cur}`
  return [
    { label: "order", medusa: `${medusa.orderId} (#${medusa.displayId ?? "?"})`, gateway: `orderid ${gateway.orderid} (client_orderid ${gateway.clientOrderId})` },
    { label: "order total at checkout", medusa: money(orderTotal), gateway: `${gateway.initialAmount} ${gateway.currency ?? ""}`.trim() },
    { label: "authorized", medusa: money(medusa.paymentAmount), gateway: `${gateway.authorized} ${gateway.currency ?? ""}`.trim() },
    { label: "captured", medusa: `${sum(medusa.captured, cur)} ${cur}`, gateway: `${gateway.captured} ${gateway.currency ?? ""}`.trim() },
    { label: "refunded", medusa: `${sum(medusa.refunded, cur)} ${cur}`, gateway: `${gateway.returned} ${gateway.currency ?? ""}`.trim() },
    { label: "status", medusa: `payment ${medusa.paymentStatus ?? "?"}`, gateway: `${gateway.transactionType} ${gateway.status}` },
  ]
}

/** Formats a Medusa amount with the currency's exponent ("30" EUR → "30.00"). */
export function formatAmount(amount: string | number, currency: string): string {
  return normalizeAmount(String(amount), currency)
}

/** Throws when Medusa's and the gateway's money disagree (the demo must never end "ok" on a mismatch). */
export function assertAgreement(medusa: MedusaPaymentView, gateway: TransactionView, orderTotal: string): void {
  const cur = medusa.currency
  const pairs: Array<[string, string, string]> = [
    ["order total", normalizeAmount(orderTotal, cur), gateway.initialAmount],
    ["authorized", normalizeAmount(medusa.paymentAmount, cur), gateway.authorized],
    ["captured", sum(medusa.captured, cur), gateway.captured],
    ["refunded", sum(medusa.refunded, cur), gateway.returned],
  ]
  const off = pairs.filter(([, m, g]) => m !== g)
  if (off.length) {
    throw new DemoCheckError(`Medusa and the gateway disagree: ${off.map(([k, m, g]) => `${k} ${m} vs ${g}`).join("; ")}`)
  }
}

export function printSummary(medusa: MedusaPaymentView, gateway: TransactionView, orderTotal: string): void {
  const rows = summaryRows(medusa, gateway, orderTotal)
  table(["", "Medusa", "Gateway (sandbox)"], rows.map((r) => [r.label, r.medusa, r.gateway]))
  const cur = medusa.currency
  const partial =
    sum(medusa.refunded, cur) !== sum(medusa.captured, cur) || sum(medusa.captured, cur) !== normalizeAmount(medusa.paymentAmount, cur)
  if (medusa.paymentStatus === "refunded" && medusa.refunded.length > 0 && partial) {
    // @medusajs/core-flows getLastPaymentStatus scores a partial capture and a partial refund as ½ each; equal scores
    // read as "refunded". The amounts above are the ledger; the label is Medusa's aggregate.
    say(`  (Medusa labels the order "refunded" because it scores a partial capture and a partial refund alike; the amounts are what count.)`)
  }
  say()
  say("Gateway transactions on that order:")
  table(
    ["#", "type", "status", "amount", "at"],
    gateway.transactions.map((t, i) => [String(i + 1), t.type, t.status, t.amount ?? "—", t.finishedAt ?? t.createdAt])
  )
}

function table(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)))
  const line = (cells: string[]) => `  ${cells.map((c, i) => (c ?? "").padEnd(widths[i])).join(" │ ")}`.trimEnd()
  say(line(head))
  say(`  ${widths.map((w) => "─".repeat(w)).join("─┼─")}`)
  for (const r of rows) say(line(r))
}

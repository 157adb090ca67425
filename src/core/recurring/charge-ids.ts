/**
 * Which client_orderids reconciliation asks STATUS about for a recurring payment whose charge is overdue: its charges
 * carry `<row id>-c<n>` (README "Recurring payments", core/callbacks/order-kinds.ts), so the one expected next is the
 * highest n recorded + 1; numbers below it never recorded (a charge whose callback was lost before a later one came)
 * follow, newest first, up to a bound. Pure: no Medusa imports.
 */
export function expectedChargeIds(rowId: string, recorded: string[], max = 3): string[] {
  const prefix = `${rowId}-c`
  const seen = new Set(
    recorded.map((c) => c.trim()).filter((c) => c.startsWith(prefix) && /^\d+$/.test(c.slice(prefix.length))).map((c) => Number(c.slice(prefix.length)))
  )
  const highest = Math.max(0, ...seen)
  const numbers = [highest + 1]
  for (let n = highest - 1; n >= 1 && numbers.length < max; n--) if (!seen.has(n)) numbers.push(n)
  return numbers.slice(0, Math.max(0, max)).map((n) => `${prefix}${n}`)
}

/**
 * The recurring-payment schedule arithmetic (period × interval): when the next charge falls. Months and years are
 * calendar steps ("the same date of the month", the vendor's recurring guide), days and weeks fixed steps. Shared by
 * the sandbox (which charges on it) and the plugin (which shows the next expected charge). No Medusa imports.
 */
export type RecurringPeriod = "day" | "week" | "month" | "year"

export function nextChargeDate(from: Date, period: RecurringPeriod, interval: number): Date {
  const d = new Date(from.getTime())
  if (period === "day") d.setUTCDate(d.getUTCDate() + interval)
  else if (period === "week") d.setUTCDate(d.getUTCDate() + 7 * interval)
  else if (period === "month") d.setUTCMonth(d.getUTCMonth() + interval)
  else d.setUTCFullYear(d.getUTCFullYear() + interval)
  return d
}

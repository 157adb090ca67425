/**
 * The subscription schedule a product or variant carries in `metadata.payneteasy_recurring` (issue 14's interface:
 * `{ period: "day" | "week" | "month" | "year", interval: <positive integer> }`, the variant's wins over the product's):
 * reading it from metadata, validating what the admin typed (errors name the field), the metadata patch Medusa's
 * product/variant update takes (an empty string removes the key: Medusa merges metadata key by key), and how a schedule
 * reads ("every 3 months"). Pure, so the unit tier covers it; the widgets only render it.
 */
import { z } from "zod"

export const RECURRING_METADATA_KEY = "payneteasy_recurring"
export const PERIODS = ["day", "week", "month", "year"] as const
export type Period = (typeof PERIODS)[number]
export type Schedule = { period: Period; interval: number }

const scheduleSchema = z.strictObject({
  period: z.enum(PERIODS, { error: `period must be one of ${PERIODS.join(", ")}` }),
  interval: z
    .number({ error: "interval must be a whole number of periods" })
    .int({ error: "interval must be a whole number of periods" })
    .positive({ error: "interval must be a positive whole number" })
    .max(9999, { error: "interval must be at most 9999" }),
})

/** The schedule stored on a product/variant, or null when none (or when what is stored is not a valid schedule). */
export function readSchedule(metadata: Record<string, unknown> | null | undefined): Schedule | null {
  const parsed = scheduleSchema.safeParse(metadata?.[RECURRING_METADATA_KEY])
  return parsed.success ? parsed.data : null
}

/** Whether metadata holds something under the key that is not a valid schedule (shown to the admin, not hidden). */
export function hasInvalidSchedule(metadata: Record<string, unknown> | null | undefined): boolean {
  return metadata?.[RECURRING_METADATA_KEY] !== undefined && readSchedule(metadata) === null
}

export type ScheduleInput = { period: string; interval: string }
export type ScheduleCheck = { ok: true; schedule: Schedule } | { ok: false; field: "period" | "interval"; message: string }

/** What the form holds (strings) → a schedule, or the first problem with the field it is about. */
export function checkSchedule(input: ScheduleInput): ScheduleCheck {
  const text = input.interval.trim()
  const interval = /^\d+$/.test(text) ? Number(text) : Number.NaN
  const parsed = scheduleSchema.safeParse({ period: input.period, interval })
  if (parsed.success) return { ok: true, schedule: parsed.data }
  const issue = parsed.error.issues[0]
  const field = issue.path[0] === "period" ? "period" : "interval"
  return { ok: false, field, message: issue.message }
}

/** The `metadata` body for Medusa's product/variant update: sets the schedule, or (null) removes the key. */
export function schedulePatch(schedule: Schedule | null): Record<string, unknown> {
  return { [RECURRING_METADATA_KEY]: schedule ? { period: schedule.period, interval: schedule.interval } : "" }
}

/** "every month", "every 3 months". */
export function describeSchedule(s: { period: string; interval: number }): string {
  return s.interval === 1 ? `every ${s.period}` : `every ${s.interval} ${s.period}s`
}

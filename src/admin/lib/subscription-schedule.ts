/**
 * The admin side of the subscription schedule in `metadata.payneteasy_recurring` (issue 14's interface). The rules
 * themselves live once in src/core/recurring/schedule.ts (shared with the subscriber's workflow and the boot check); this
 * file adds what the widgets need: what the admin typed (strings) checked with an error naming the field, the metadata
 * patch Medusa's product/variant update takes (an empty string removes the key: Medusa merges metadata key by key),
 * and how a schedule reads ("every 3 months"). Pure, so the unit tier covers it.
 */
import { RECURRING_METADATA_KEY, recurringScheduleSchema, scheduleFromMetadata, type RecurringSchedule } from "../../core/recurring/schedule"

export { RECURRING_METADATA_KEY }
export const PERIODS = recurringScheduleSchema.shape.period.options
export type Schedule = RecurringSchedule

/** The schedule stored on a product/variant, or null when none (or when what is stored is not a valid schedule). */
export function readSchedule(metadata: Record<string, unknown> | null | undefined): Schedule | null {
  return scheduleFromMetadata(metadata).schedule ?? null
}

/** Why what is stored under the key is not a schedule (the checkout ignores it), or null. */
export function invalidScheduleReason(metadata: Record<string, unknown> | null | undefined): string | null {
  return scheduleFromMetadata(metadata).error ?? null
}

export type ScheduleInput = { period: string; interval: string }
/** A refusal: the field, the English message, and its i18n key under payneteasy.schedule with the key's values. */
export type ScheduleCheck =
  | { ok: true; schedule: Schedule }
  | {
      ok: false
      field: "period" | "interval"
      message: string
      key: "periodInvalid" | "intervalTooBig" | "intervalTooSmall" | "intervalNotWhole"
      values: Record<string, string | number>
    }

/** What the form holds (strings) → a schedule, or the first problem with the field it is about. */
export function checkSchedule(input: ScheduleInput): ScheduleCheck {
  const text = input.interval.trim()
  const interval = /^\d+$/.test(text) ? Number(text) : Number.NaN
  const parsed = recurringScheduleSchema.safeParse({ period: input.period, interval })
  if (parsed.success) return { ok: true, schedule: parsed.data }
  const issue = parsed.error.issues[0]
  if (issue.path[0] === "period") {
    const list = PERIODS.join(", ")
    return { ok: false, field: "period", message: `period must be one of ${list}`, key: "periodInvalid", values: { list } }
  }
  if (issue.code === "too_big") {
    const max = Number(issue.maximum)
    return { ok: false, field: "interval", message: `interval must be at most ${max}`, key: "intervalTooBig", values: { max } }
  }
  return issue.code === "too_small"
    ? { ok: false, field: "interval", message: "interval must be a positive whole number", key: "intervalTooSmall", values: {} }
    : { ok: false, field: "interval", message: "interval must be a whole number of periods", key: "intervalNotWhole", values: {} }
}

/** The `metadata` body for Medusa's product/variant update: sets the schedule, or (null) removes the key. */
export function schedulePatch(schedule: Schedule | null): Record<string, unknown> {
  return { [RECURRING_METADATA_KEY]: schedule ? { period: schedule.period, interval: schedule.interval } : "" }
}

/** "every month", "every 3 months". */
export function describeSchedule(s: { period: string; interval: number }): string {
  return s.interval === 1 ? `every ${s.period}` : `every ${s.interval} ${s.period}s`
}

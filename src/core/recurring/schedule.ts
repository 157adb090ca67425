/**
 * What makes a product or variant a subscription: `metadata.payneteasy_recurring = { period, interval }` (the fixed
 * interface of issue 14; the admin widget edits exactly that key). A variant's value wins over its product's.
 * Pure functions, no Medusa imports: the subscriber's workflow, the boot check and the admin widget's rules agree here.
 */
import { z } from "zod"

export const RECURRING_METADATA_KEY = "payneteasy_recurring"

export const recurringScheduleSchema = z.strictObject({
  period: z.enum(["day", "week", "month", "year"]),
  interval: z.number().int().positive().max(9999),
})

export type RecurringSchedule = z.output<typeof recurringScheduleSchema>

/** The schedule in a metadata object; undefined when the key is absent; an error naming the field when malformed. */
export function scheduleFromMetadata(metadata: unknown): { schedule?: RecurringSchedule; error?: string } {
  const raw = metadata && typeof metadata === "object" ? (metadata as Record<string, unknown>)[RECURRING_METADATA_KEY] : undefined
  if (raw === undefined || raw === null) return {}
  const parsed = recurringScheduleSchema.safeParse(raw)
  if (parsed.success) return { schedule: parsed.data }
  const fields = [...new Set(parsed.error.issues.map((i) => [RECURRING_METADATA_KEY, ...i.path].join(".")))].join(", ")
  return { error: `metadata.${fields} is not a valid subscription schedule (period day|week|month|year, positive integer interval)` }
}

/** A line's schedule: the variant's when it has one, else the product's. */
export function lineSchedule(variantMetadata: unknown, productMetadata: unknown): { schedule?: RecurringSchedule; error?: string } {
  const fromVariant = scheduleFromMetadata(variantMetadata)
  if (fromVariant.schedule || fromVariant.error) return fromVariant
  return scheduleFromMetadata(productMetadata)
}

export const scheduleKey = (s: RecurringSchedule) => `${s.period}:${s.interval}`

/** The product/variant widget's schedule rules (src/admin/lib/subscription-schedule.ts), apart from the browser. */
import { checkSchedule, describeSchedule, invalidScheduleReason, readSchedule, schedulePatch } from "../subscription-schedule"

describe("checkSchedule (what the admin typed)", () => {
  it.each(["day", "week", "month", "year"])("accepts period %s with a positive whole interval", (period) => {
    expect(checkSchedule({ period, interval: "3" })).toEqual({ ok: true, schedule: { period, interval: 3 } })
  })

  it("trims the interval", () => {
    expect(checkSchedule({ period: "month", interval: " 12 " })).toEqual({ ok: true, schedule: { period: "month", interval: 12 } })
  })

  it.each(["0", "-1", "1.5", "", "abc", "1e2", "0x10", "2 3"])("refuses interval %p, naming the field", (interval) => {
    const r = checkSchedule({ period: "month", interval })
    expect(r).toMatchObject({ ok: false, field: "interval" })
    expect(r.ok === false && r.message).toMatch(/^interval /)
  })

  it("refuses an interval above 9999 (what the backend accepts)", () => {
    expect(checkSchedule({ period: "day", interval: "9999" })).toMatchObject({ ok: true })
    expect(checkSchedule({ period: "day", interval: "10000" })).toEqual({ ok: false, field: "interval", message: "interval must be at most 9999", key: "intervalTooBig", values: { max: 9999 } })
  })

  it.each(["", "months", "Month", "quarter"])("refuses period %p, naming the field", (period) => {
    const r = checkSchedule({ period, interval: "1" })
    expect(r).toEqual({ ok: false, field: "period", message: "period must be one of day, week, month, year", key: "periodInvalid", values: { list: "day, week, month, year" } })
  })
})

describe("readSchedule / invalidScheduleReason (what is stored)", () => {
  it("reads the schedule under payneteasy_recurring", () => {
    expect(readSchedule({ other: 1, payneteasy_recurring: { period: "year", interval: 1 } })).toEqual({ period: "year", interval: 1 })
    expect(invalidScheduleReason({ payneteasy_recurring: { period: "year", interval: 1 } })).toBeNull()
  })

  it("no metadata or no key: no schedule, nothing invalid", () => {
    expect(readSchedule(null)).toBeNull()
    expect(readSchedule({ other: "x" })).toBeNull()
    expect(invalidScheduleReason(undefined)).toBeNull()
    expect(invalidScheduleReason({ other: "x" })).toBeNull()
  })

  it.each([{ period: "month", interval: 0 }, { period: "fortnight", interval: 1 }, { period: "month", interval: "2" }, { period: "month", interval: 1, every: 2 }, "monthly"])(
    "a stored value that is not a schedule (%p) is reported as invalid",
    (value) => {
      expect(readSchedule({ payneteasy_recurring: value })).toBeNull()
      expect(invalidScheduleReason({ payneteasy_recurring: value })).toMatch(/^metadata\.payneteasy_recurring.* is not a valid subscription schedule/)
    }
  )
})

describe("schedulePatch (Medusa merges metadata per key; an empty string removes one)", () => {
  it("sets exactly the key", () => {
    expect(schedulePatch({ period: "week", interval: 2 })).toEqual({ payneteasy_recurring: { period: "week", interval: 2 } })
  })
  it("removes exactly the key", () => {
    expect(schedulePatch(null)).toEqual({ payneteasy_recurring: "" })
  })
})

it("describeSchedule", () => {
  expect(describeSchedule({ period: "month", interval: 1 })).toBe("every month")
  expect(describeSchedule({ period: "month", interval: 3 })).toBe("every 3 months")
  expect(describeSchedule({ period: "day", interval: 10 })).toBe("every 10 days")
})

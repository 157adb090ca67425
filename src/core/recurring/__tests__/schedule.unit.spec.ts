/**
 * The subscription marking (metadata.payneteasy_recurring, variant wins) and the boot-time keyless warning lines.
 */
import { nextChargeDate } from "../../../gateway/schedule"
import { keylessWarnings } from "../boot-check"
import { lineSchedule, scheduleFromMetadata } from "../schedule"

describe("metadata.payneteasy_recurring", () => {
  it("reads a valid schedule and ignores products without one", () => {
    expect(scheduleFromMetadata({ payneteasy_recurring: { period: "month", interval: 3 } })).toEqual({ schedule: { period: "month", interval: 3 } })
    expect(scheduleFromMetadata({ other: 1 })).toEqual({})
    expect(scheduleFromMetadata(null)).toEqual({})
  })

  it("names the field of a malformed schedule", () => {
    for (const bad of [{ period: "fortnight", interval: 1 }, { period: "month", interval: 0 }, { period: "month", interval: 1.5 },
      { period: "month" }, { period: "month", interval: "1" }, { period: "month", interval: 1, extra: true }, "monthly"]) {
      expect(scheduleFromMetadata({ payneteasy_recurring: bad }).error).toMatch(/metadata\.payneteasy_recurring/)
    }
  })

  it("a variant's schedule wins over its product's", () => {
    const product = { payneteasy_recurring: { period: "year", interval: 1 } }
    expect(lineSchedule({ payneteasy_recurring: { period: "week", interval: 2 } }, product).schedule).toEqual({ period: "week", interval: 2 })
    expect(lineSchedule({}, product).schedule).toEqual({ period: "year", interval: 1 })
    expect(lineSchedule(undefined, undefined)).toEqual({})
  })
})

describe("schedule arithmetic", () => {
  it("steps days and weeks exactly, months and years by the calendar", () => {
    const from = new Date("2026-01-31T10:00:00Z")
    expect(nextChargeDate(from, "day", 3).toISOString()).toBe("2026-02-03T10:00:00.000Z")
    expect(nextChargeDate(from, "week", 2).toISOString()).toBe("2026-02-14T10:00:00.000Z")
    expect(nextChargeDate(new Date("2026-03-15T00:00:00Z"), "month", 3).toISOString()).toBe("2026-06-15T00:00:00.000Z")
    expect(nextChargeDate(from, "year", 1).toISOString()).toBe("2027-01-31T10:00:00.000Z")
  })
})

describe("boot-time warning", () => {
  it("names every keyless registration when subscriptions are sold, and says nothing otherwise", () => {
    expect(keylessWarnings({ subscriptionProducts: false, recurringEnabled: false }, ["pp_payneteasy_a"])).toEqual([])
    const lines = keylessWarnings({ subscriptionProducts: true, recurringEnabled: false }, ["pp_payneteasy_a", "pp_payneteasy_b"])
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/subscription products exist.*pp_payneteasy_a has no privateKey.*RSA-SHA256/)
    expect(keylessWarnings({ subscriptionProducts: false, recurringEnabled: true }, ["pp_payneteasy_a"])[0]).toMatch(/recurringEnabled/)
  })
})

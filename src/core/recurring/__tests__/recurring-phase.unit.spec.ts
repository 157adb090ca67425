/**
 * What each recurring payment status allows (recurring-phase.ts), over every status of the model. The expectations
 * are spelled out here, not read from the table, so a row moved by mistake fails.
 */
import { RECURRING_STATUSES } from "../../../modules/payneteasy/models/recurring-payment"
import { CHARGING_RECURRING_STATUSES, isCancellable, isCharging, RECURRING_STATUS_ALLOWS } from "../recurring-phase"

const CHARGING = ["active", "past_due"]
const CANCELLABLE = ["active", "past_due", "needs_attention"]

describe("recurring payment statuses, each placed once (RECURRING_STATUS_ALLOWS)", () => {
  it.each(RECURRING_STATUSES.map((s) => [s]))("%s", (status) => {
    expect(isCharging(status)).toBe(CHARGING.includes(status))
    expect(CHARGING_RECURRING_STATUSES.includes(status)).toBe(CHARGING.includes(status))
    expect(isCancellable(status)).toBe(CANCELLABLE.includes(status))
    // a schedule the gateway charges can always be cancelled
    if (isCharging(status)) expect(isCancellable(status)).toBe(true)
  })

  it("names every status of the model and no other", () => {
    expect(Object.keys(RECURRING_STATUS_ALLOWS).sort()).toEqual([...RECURRING_STATUSES].sort())
  })

  it("nothing is allowed for a missing or unknown status", () => {
    for (const s of [undefined, null, "", "ACTIVE"]) {
      expect(isCharging(s)).toBe(false)
      expect(isCancellable(s)).toBe(false)
    }
  })
})

/**
 * Where each payout status stands (payout-phase.ts PAYOUT_STATUS_PHASE), over every status of the model: which are
 * final, which reconciliation polls, which are the gateway's refusal. The expectations are spelled out here, not
 * read from the table, so a row moved by mistake fails.
 */
import { PAYOUT_STATUSES } from "../../../modules/payneteasy/models/payout"
import { isFinalPayout, isRefusedPayout, OPEN_PAYOUT_STATUSES, PAYOUT_STATUS_PHASE } from "../payout-phase"

const FINAL = ["approved", "declined", "error", "filtered", "check_declined", "failed", "ineligible"]
const POLLED = ["pending", "eligibility_checking", "checking", "processing", "form_issued"]
const REFUSED = ["declined", "error", "filtered", "check_declined"]

describe("payout statuses, each placed once (PAYOUT_STATUS_PHASE)", () => {
  it.each(PAYOUT_STATUSES.map((s) => [s]))("%s", (status) => {
    expect(isFinalPayout(status)).toBe(FINAL.includes(status))
    expect(OPEN_PAYOUT_STATUSES.includes(status)).toBe(POLLED.includes(status))
    expect(isRefusedPayout(status)).toBe(REFUSED.includes(status))
    // a status is final, polled, or the one waiting for a person's confirm; never two of these
    expect([isFinalPayout(status), OPEN_PAYOUT_STATUSES.includes(status), status === "checked"].filter(Boolean)).toHaveLength(1)
  })

  it("names every status of the model and no other", () => {
    expect(Object.keys(PAYOUT_STATUS_PHASE).sort()).toEqual([...PAYOUT_STATUSES].sort())
  })

  it("a string the API does not use is not final (the dashboard keeps asking)", () => {
    expect(isFinalPayout("")).toBe(false)
    expect(isFinalPayout("APPROVED")).toBe(false)
  })
})

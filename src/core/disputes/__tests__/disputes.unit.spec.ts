/**
 * What each dispute kind means for the shop (issue 51), one row per kind so a new kind does not compile without one:
 * whether it moves money (a chargeback and a second chargeback take it, a reversal gives it back, a retrieval request
 * and a fraud marker move none), what a person must do and by when (the deadline from the dispute's date), exact in
 * minor units.
 */
import { DISPUTE_KINDS, type DisputeKind } from "../../../gateway/disputes"
import { DISPUTE_RULES, disputeDeadline, disputeMoneyMinor, disputeView } from "../disputes"

const EXPECTED: Record<DisputeKind, { money: bigint; days: number }> = {
  chargeback: { money: 400n, days: 30 },
  second_chargeback: { money: 400n, days: 10 },
  retrieval_request: { money: 0n, days: 10 },
  fraud_marker: { money: 0n, days: 3 },
  chargeback_reversal: { money: -400n, days: 14 },
}

describe("dispute rules", () => {
  it.each(DISPUTE_KINDS.map((k) => [k] as const))("%s: its money, its deadline and what to do", (kind) => {
    const e = EXPECTED[kind]
    expect(disputeMoneyMinor(kind, 400n)).toBe(e.money)
    expect(DISPUTE_RULES[kind].respondWithinDays).toBe(e.days)
    expect(disputeDeadline(kind, "2026-11-25T13:00:00.000Z")).toBe(new Date(Date.UTC(2026, 10, 25 + e.days, 13)).toISOString())
    expect(DISPUTE_RULES[kind].whatToDo.length).toBeGreaterThan(40)
    expect(DISPUTE_RULES[kind].whatToDo).toMatch(/PaynetEasy back office|settlement/)
  })

  it("a deadline of an unreadable date is none; money is exact on large amounts", () => {
    expect(disputeDeadline("chargeback", "garbage")).toBeNull()
    expect(disputeMoneyMinor("chargeback_reversal", 12345678901234567890n)).toBe(-12345678901234567890n)
  })

  it("disputeView: the kind, reason code, date and deadline of a dispute type; undefined for any other type", () => {
    expect(disputeView("retrieval-request", { reasonCode: "RR1", date: "2026-11-25T13:00:00.000Z" })).toEqual({
      kind: "retrieval_request", reason_code: "RR1", date: "2026-11-25T13:00:00.000Z", deadline: "2026-12-05T13:00:00.000Z",
      money: "none", what_to_do: DISPUTE_RULES.retrieval_request.whatToDo,
    })
    expect(disputeView("fraud", { reasonCode: undefined, date: "2026-11-25T13:00:00.000Z" })).toMatchObject({ kind: "fraud_marker", reason_code: null })
    expect(disputeView("capture", { date: "2026-11-25T13:00:00.000Z" })).toBeUndefined()
  })
})

import { watchUpdate } from "../watch"
import { sessionCheck } from "../../../workflows/payneteasy/reconcile"
import { ledgerCheck } from "../../../workflows/payneteasy/reconcile-ledger"

const started = new Date("2026-01-01T10:00:00Z")
const row = { id: "pnerec_1", checks: 2, started_at: started, session_id: "payses_1" }
const at = (minutes: number) => new Date(started.getTime() + minutes * 60_000)

describe("watchUpdate: the one close-or-reschedule helper", () => {
  it("closes a watch with its state, counts the check and trims the note", () => {
    const u = watchUpdate(row, at(1), { state: "flagged", lastStatus: "declined", note: "x".repeat(2000) })
    expect(u).toEqual({ id: "pnerec_1", state: "flagged", last_status: "declined", last_checked_at: at(1), checks: 3, note: "x".repeat(1000) })
  })
  it("reschedules a pending watch and refuses to without a next check time", () => {
    expect(watchUpdate(row, at(1), { state: "pending", lastStatus: "processing" }, at(2))).toEqual({
      id: "pnerec_1", next_check_at: at(2), last_status: "processing", last_checked_at: at(1), checks: 3,
    })
    expect(() => watchUpdate(row, at(1), { state: "pending" }, null)).toThrow(/next check/)
  })
})

describe("sessionCheck: what one session check concludes", () => {
  it("a final outcome ends the watch", () => {
    const out = sessionCheck(row, { outcome: "failed", sessionStatus: "error", detail: "gateway: declined" }, at(1))
    expect(out.verdict).toBe("settled")
    expect(out.update).toMatchObject({ state: "final", last_status: "error", note: "gateway: declined" })
  })
  it("paid but no order stays pending within the hour and is flagged after it", () => {
    const paid = { outcome: "authorized" as const, sessionStatus: "authorized", cartId: "cart_1", paymentId: "pay_1", detail: "no order" }
    expect(sessionCheck(row, paid, at(1)).verdict).toBe("pending")
    const late = sessionCheck(row, paid, at(61))
    expect(late.verdict).toBe("flagged")
    expect(late.update.note).toMatch(/complete the cart or refund/)
    expect(late.warning).toMatch(/cart cart_1 could not be completed/)
  })
  it("after the hour, a direct session the gateway never saw ends quietly; one with a gateway order is flagged", () => {
    const unseen = sessionCheck(row, { outcome: "pending", sessionStatus: "pending", detail: "not final" }, at(61))
    expect(unseen.verdict).toBe("settled")
    expect(unseen.warning).toBeUndefined()
    const seen = sessionCheck(row, { outcome: "pending", sessionStatus: "pending", gatewayOrderId: "1000001", detail: "not final" }, at(61))
    expect(seen.verdict).toBe("flagged")
    expect(seen.warning).toMatch(/no final gateway status after an hour/)
  })
})

describe("ledgerCheck: what one ledger entry check concludes", () => {
  const look = (status: string) => ({
    gone: false as const, kind: "capture" as const, entry: { id: "capt_1", amount: "5.00" },
    payment: { id: "pay_1" } as any, answer: { status, errorMessage: status === "declined" ? "refused" : undefined },
  })
  it("gone → final; approved → final; declined → flagged with the gateway's reason and a warning", () => {
    expect(ledgerCheck(row, { gone: true }, at(1)).update).toMatchObject({ state: "final", note: "ledger entry no longer pending (or gone)" })
    expect(ledgerCheck(row, look("approved"), at(1))).toMatchObject({ verdict: "settled", update: { state: "final", last_status: "approved" } })
    const declined = ledgerCheck(row, look("declined"), at(1), "capture capt_1 was declined …")
    expect(declined).toMatchObject({ verdict: "flagged", update: { state: "flagged", last_status: "declined", note: "refused" } })
    expect(declined.warning).toBe("PaynetEasy: capture capt_1 was declined …")
  })
  it("not final: pending within the hour, flagged after it", () => {
    expect(ledgerCheck(row, look("processing"), at(1)).verdict).toBe("pending")
    expect(ledgerCheck(row, look("other"), at(61))).toMatchObject({ verdict: "flagged", update: { last_status: "other" } })
  })
})

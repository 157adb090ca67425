import { watchUpdate } from "../watch"
import { sessionCheck } from "../session-check"
import { latestSpeaksFor, ledgerCheck } from "../ledger-check"
import { claimedSerials } from "../../checkout/ledger"

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
  it("sent, reply lost, not shown by STATUS yet: pending within the processing window, an attention item (flagged) after it", () => {
    const unshown = {
      ...look("unknown"), windowMs: 5 * 60_000,
      entry: { id: "capt_1", amount: "5.00", afterSerial: "s1", sentAt: started.toISOString() },
      answer: { status: "unknown", notShownYet: true as const },
    }
    expect(ledgerCheck(row, unshown, at(4)).verdict).toBe("pending")
    const flagged = ledgerCheck(row, unshown, at(5))
    expect(flagged).toMatchObject({ verdict: "flagged", update: { state: "flagged", note: expect.stringMatching(/not shown it within the processing window \(5 min\).*Nothing was sent again/) } })
    // a longer window keeps it pending
    expect(ledgerCheck(row, { ...unshown, windowMs: 30 * 60_000 }, at(10)).verdict).toBe("pending")
  })
})

describe("latestSpeaksFor: whether the order's latest transaction is a not-shown entry's", () => {
  const none = new Set<string>()
  it("a newer transaction of the entry's kind, claimed by no other entry, is ours", () => {
    expect(latestSpeaksFor({ afterSerial: "s1" }, { serial: "s2", type: "reversal" }, "refund", none)).toBe("ours")
  })
  it("still the transaction before the request: not shown yet (never 'did not arrive')", () => {
    expect(latestSpeaksFor({ afterSerial: "s1" }, { serial: "s1", type: "reversal" }, "refund", none)).toBe("not-shown-yet")
  })
  it("another kind: not shown yet when the entry has a snapshot, unclear without one", () => {
    expect(latestSpeaksFor({ afterSerial: "s1" }, { serial: "s2", type: "capture" }, "refund", none)).toBe("not-shown-yet")
    expect(latestSpeaksFor({}, { serial: "s2", type: "capture" }, "refund", none)).toBe("unclear")
  })
  it("a transaction the ledger gives to another entry is never adopted (a lost refund took the next refund's RETURN)", () => {
    const data = { refunds: [{ id: "ref_1", amount: "2.48", pending: true, status: "unknown", afterSerial: "s1" }, { id: "ref_2", amount: "2.48", status: "approved", serialNumber: "s2" }] }
    const claimed = claimedSerials(data)
    expect([...claimed]).toEqual(["s2"])
    expect(latestSpeaksFor({ afterSerial: "s1" }, { serial: "s2", type: "reversal" }, "refund", claimed)).toBe("not-shown-yet")
    expect(latestSpeaksFor({}, { serial: "s2", type: "reversal" }, "refund", claimed)).toBe("unclear")
  })
  it("claimedSerials reads captures, refunds and the void, and ignores entries without a serial", () => {
    const data = { captures: [{ id: "c1", serialNumber: "a" }, { id: "c2" }], refunds: [{ id: "r1", serialNumber: "b" }], voidEntry: { id: "void", serialNumber: "c" } }
    expect([...claimedSerials(data)].sort()).toEqual(["a", "b", "c"])
    expect(claimedSerials(null).size).toBe(0)
  })
})

/**
 * The gateway's dispute transactions (issue 51): each kind has its wire spellings, every spelling reads back as its
 * kind (any case, hyphens or spaces for underscores), the canonical one first; a capture or a plain reversal is no
 * dispute; the reason code and the date are read from a STATUS reply or a callback in the gateway's spelling.
 */
import { DISPUTE_KINDS, DISPUTE_WIRE_TYPES, disputeKindOf, disputeReasonCodeOf, disputeDateOf, disputeWireType, isDisputeType, type DisputeKind } from "../disputes"
import { laterEventType } from "../later-event"

const CANONICAL: Record<DisputeKind, string> = {
  chargeback: "chargeback",
  second_chargeback: "second_chargeback",
  retrieval_request: "retrieval_request",
  fraud_marker: "fraud",
  chargeback_reversal: "chargeback_reversal",
}

describe("dispute wire types", () => {
  it.each(DISPUTE_KINDS.map((k) => [k, CANONICAL[k]] as const))("%s is sent as %s and reads back as itself", (kind, wire) => {
    expect(disputeWireType(kind)).toBe(wire)
    expect(disputeKindOf(wire)).toBe(kind)
    expect(disputeKindOf(` ${wire.toUpperCase().replace(/_/g, "-")} `)).toBe(kind)
    expect(DISPUTE_WIRE_TYPES).toContain(wire)
    expect(isDisputeType(wire)).toBe(true)
    // a later event's type is its canonical spelling, whatever alias the callback used
    expect(laterEventType(wire.replace(/_/g, " "))).toBe(wire)
  })

  it("reads the aliases the schemes use (TC40 / SAFE fraud reports, arbitration chargebacks, retrievals)", () => {
    expect(disputeKindOf("fraud_report")).toBe("fraud_marker")
    expect(disputeKindOf("fraud-marker")).toBe("fraud_marker")
    expect(disputeKindOf("retrieval")).toBe("retrieval_request")
    expect(disputeKindOf("chargeback2")).toBe("second_chargeback")
    expect(disputeKindOf("arbitration_chargeback")).toBe("second_chargeback")
    expect(disputeKindOf("reversal_of_chargeback")).toBe("chargeback_reversal")
    expect(laterEventType("fraud-report")).toBe("fraud")
  })

  it("is no dispute: a capture, a return, a plain reversal, an unknown word", () => {
    for (const t of ["capture", "reversal", "return", "void", "sale", "", undefined, null, "dispute-ish"]) expect(disputeKindOf(t)).toBeUndefined()
    expect(laterEventType("return")).toBe("reversal")
  })

  it("every wire spelling names one of the words the callback log's dispute index covers", () => {
    for (const t of DISPUTE_WIRE_TYPES) expect(t).toMatch(/chargeback|retrieval|fraud/)
  })

  it("reads the reason code and the date (STATUS reply or callback, the gateway's spelling)", () => {
    expect(disputeReasonCodeOf({ "reason-code": " 10.4 " })).toBe("10.4")
    expect(disputeReasonCodeOf({ reason_code: "4837" })).toBe("4837")
    expect(disputeReasonCodeOf({ "reason-code": "" })).toBeUndefined()
    expect(disputeReasonCodeOf(undefined)).toBeUndefined()
    expect(disputeDateOf({ "paynet-processing-date": "2026-11-25T13:00:00.000Z" })).toBe("2026-11-25T13:00:00.000Z")
    expect(disputeDateOf({ "paynet-processing-date": "not a date" })).toBeUndefined()
    expect(disputeDateOf({})).toBeUndefined()
  })
})

/**
 * The order panel's later events (core/dashboard/later-events.ts) for every dispute kind (issue 51): confirmed by
 * STATUS once reflected on the order, with STATUS's amount, reason code and date and the kind's deadline; a dispute
 * STATUS refuted has no warning; one not processed yet says so.
 */
import { DISPUTE_KINDS, disputeWireType } from "../../../gateway/disputes"
import type { GatewayEventEntry } from "../../callbacks/reflect-later-event"
import { DISPUTE_RULES, disputeDeadline } from "../../disputes/disputes"
import { laterEventViews } from "../later-events"

const AT = new Date("2026-11-25T13:00:00.000Z")
const row = (over: Record<string, unknown>) =>
  ({ id: "pnecb_1", source: "callback", type: "chargeback", status: "approved", amount: "999.00", currency: "EUR", error_code: null, error_message: null,
    received_at: AT, outcome: "processed", params: { "reason-code": "callback-says" }, ...over }) as any
const entry = (over: Partial<GatewayEventEntry> = {}): GatewayEventEntry => ({
  callback_id: "pnecb_1", type: "chargeback", status: "approved", amount: "4.00", currency: "EUR", orderid: "1", serial: "s1", source: "callback",
  reason: null, reason_code: "10.4", processed_at: "2026-11-20T00:00:00.000Z", received_at: AT.toISOString(), confirmed: true, ...over,
})

describe("laterEventViews: disputes", () => {
  it.each(DISPUTE_KINDS.map((k) => [k] as const))("%s confirmed: STATUS's amount, reason code and date, the deadline and what to do", (kind) => {
    const type = disputeWireType(kind)
    const [v] = laterEventViews([row({ type })], undefined, new Map([["pnecb_1", entry({ type })]]))
    expect(v).toMatchObject({
      type, amount: "4.00", confirmed: true, outside_medusa: true,
      dispute: { kind, reason_code: "10.4", date: "2026-11-20T00:00:00.000Z", deadline: disputeDeadline(kind, "2026-11-20T00:00:00.000Z") },
    })
    expect(v.warning).toContain(DISPUTE_RULES[kind].whatToDo)
    expect(v.warning).toContain(`by ${disputeDeadline(kind, "2026-11-20T00:00:00.000Z")!.slice(0, 10)}`)
  })

  it("not confirmed yet: the callback's amount and reason code, dated when received, with a warning to check it", () => {
    const [v] = laterEventViews([row({ type: "retrieval_request", outcome: "received" })], undefined)
    expect(v).toMatchObject({ amount: "999.00", confirmed: false, dispute: { kind: "retrieval_request", reason_code: "callback-says", date: AT.toISOString() } })
    expect(v.warning).toMatch(/not confirmed by the gateway's STATUS yet/)
  })

  it("refuted by STATUS (forged or a duplicate): kept in the list, unconfirmed, with no warning", () => {
    const [v] = laterEventViews([row({ outcome: "ignored" })], undefined)
    expect(v).toMatchObject({ confirmed: false, warning: null })
  })

  it("a return Medusa made is no dispute and needs no warning; an unknown type still warns", () => {
    const d = { refunds: [{ id: "r1", amount: "5.00", status: "approved" }] } as any
    const [ret, other] = laterEventViews([row({ type: "reversal", amount: "5.00" }), row({ id: "pnecb_2", type: "dispute_note", received_at: new Date(AT.getTime() + 1) })], d)
    expect(ret).toMatchObject({ dispute: null, outside_medusa: false, warning: null })
    expect(other.warning).toMatch(/gateway event \(dispute_note\).*back office/)
  })
})

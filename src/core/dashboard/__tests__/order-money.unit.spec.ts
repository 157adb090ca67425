/**
 * The order page's money summary and activity (core/dashboard/order-money.ts): figures after a partial
 * capture, a refund and a chargeback, exact in minor units; the shop's own actions told apart from what only the
 * gateway reported; the 3-D Secure wording right for every way a payment is made.
 */
import { activityOf, eventKind, moneySummary, threeDsState, type ActivityKind, type GatewayEvent, type SessionMoneyInput } from "../order-money"
import { DISPUTE_KINDS, disputeWireType, type DisputeKind } from "../../../gateway/disputes"
import { disputeView } from "../../disputes/disputes"
import type { SessionData } from "../../checkout/session-data"

const base = (d: Partial<SessionData>): SessionData =>
  ({ session_id: "ps_1", clientOrderId: "ps_1", flow: "hosted", transactionType: "preauth", amount: "54.85", currency: "EUR", orderId: "900", gatewayStatus: "approved", ...d }) as SessionData

const input = (d: SessionData, events: GatewayEvent[] = [], over: Partial<SessionMoneyInput> = {}): SessionMoneyInput => ({
  session_id: d.session_id,
  data: d,
  kind: "hosted",
  authorized: true,
  authorized_at: "2026-11-25T10:00:00.000Z",
  started_by: null,
  events,
  medusa_rows: new Map([
    ["capt_1", { id: "capt_1", created_at: "2026-11-25T11:00:00.000Z", created_by: "user_1" }],
    ["ref_1", { id: "ref_1", created_at: "2026-11-25T12:00:00.000Z", created_by: "user_1" }],
  ]),
  emails: new Map([["user_1", "admin@shop.test"]]),
  ...over,
})

const summaryOf = (inputs: SessionMoneyInput[]) => moneySummary(inputs, inputs.map(activityOf))

describe("moneySummary", () => {
  it("a preauth, a partial capture and a refund: authorized, captured, refunded and left to capture, exact", () => {
    const d = base({
      captures: [{ id: "capt_1", amount: "20.10", status: "approved", serialNumber: "s1" }],
      refunds: [{ id: "ref_1", amount: "5.05", status: "approved", serialNumber: "s2" }],
    })
    expect(summaryOf([input(d)])).toEqual([
      { currency: "EUR", authorized: "54.85", captured: "20.10", refunded: "5.05", charged_back: "0.00", left_to_capture: "34.75", pending: "0.00" },
    ])
  })

  it("a sale is captured in full; a chargeback counts once it is approved; a pending refund is pending, not refunded", () => {
    const d = base({ transactionType: "sale", refunds: [{ id: "ref_1", amount: "1.00", status: "processing", pending: true }] })
    const events: GatewayEvent[] = [
      { callback_id: "cb1", type: "chargeback", status: "approved", amount: "4.00", currency: "EUR", received_at: "2026-11-25T13:00:00.000Z", outside_medusa: true, warning: "w", confirmed: true, dispute: null },
      { callback_id: "cb2", type: "chargeback", status: "declined", amount: "9.00", currency: "EUR", received_at: "2026-11-25T13:00:00.000Z", outside_medusa: true, warning: "w", confirmed: true, dispute: null },
    ]
    expect(summaryOf([input(d, events)])[0]).toEqual({
      currency: "EUR", authorized: "54.85", captured: "54.85", refunded: "0.00", charged_back: "4.00", left_to_capture: "0.00", pending: "1.00",
    })
  })

  it("a released authorization leaves nothing to capture; a declined payment authorizes nothing", () => {
    expect(summaryOf([input(base({ voided: true }))])[0]).toMatchObject({ authorized: "54.85", left_to_capture: "0.00" })
    expect(summaryOf([input(base({ gatewayStatus: "declined" }), [], { authorized: false })])).toEqual([])
  })

  it("sums per currency in minor units (no float drift over many small captures), JPY without decimals", () => {
    const captures = Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, amount: "0.10", status: "approved" }))
    const eur = input(base({ amount: "1.00", captures }))
    const jpy = input(base({ session_id: "ps_2", amount: "1000", currency: "JPY", transactionType: "sale" }))
    expect(summaryOf([eur, jpy])).toEqual([
      { currency: "EUR", authorized: "1.00", captured: "1.00", refunded: "0.00", charged_back: "0.00", left_to_capture: "0.00", pending: "0.00" },
      { currency: "JPY", authorized: "1000", captured: "1000", refunded: "0", charged_back: "0", left_to_capture: "0", pending: "0" },
    ])
  })
})

describe("activityOf", () => {
  it("the admin's capture and refund are the dashboard's, with the admin's e-mail; their callbacks confirm them, not listed twice", () => {
    const d = base({ captures: [{ id: "capt_1", amount: "20.10", status: "approved" }], refunds: [{ id: "ref_1", amount: "5.05", status: "approved" }] })
    const events: GatewayEvent[] = [
      { callback_id: "cb1", type: "capture", status: "approved", amount: "20.10", currency: "EUR", received_at: "2026-11-25T11:00:01.000Z", outside_medusa: false, warning: null, confirmed: true, dispute: null },
      { callback_id: "cb2", type: "reversal", status: "approved", amount: "5.05", currency: "EUR", received_at: "2026-11-25T12:00:01.000Z", outside_medusa: false, warning: null, confirmed: true, dispute: null },
      { callback_id: "cb3", type: "chargeback", status: "approved", amount: "4.00", currency: "EUR", received_at: "2026-11-25T13:00:00.000Z", outside_medusa: true, warning: "answer it", confirmed: true, dispute: null },
    ]
    const a = activityOf(input(d, events))
    expect(a.map((e) => [e.kind, e.origin, e.amount, e.by])).toEqual([
      ["authorization", "checkout", "54.85", null],
      ["capture", "dashboard", "20.10", "admin@shop.test"],
      ["refund", "dashboard", "5.05", "admin@shop.test"],
      ["chargeback", "gateway", "4.00", null],
    ])
    expect(a[1]).toMatchObject({ at: "2026-11-25T11:00:00.000Z", confirmed_by_gateway: true })
    expect(a[3].warning).toBe("answer it")
  })

  it("a rebill's charge is the dashboard's, by the admin who started it; a renewal's is the subscription's", () => {
    const d = base({ transactionType: "sale" })
    expect(activityOf(input(d, [], { kind: "rebill", started_by: "admin@shop.test" }))[0]).toMatchObject({ kind: "sale", origin: "dashboard", by: "admin@shop.test" })
    expect(activityOf(input(d, [], { kind: "renewal" }))[0]).toMatchObject({ kind: "sale", origin: "subscription", by: null })
  })
})

describe("disputes (issue 51): every kind in the activity, its money in the summary once STATUS confirmed it", () => {
  const AT = "2026-11-25T13:00:00.000Z"
  const dispute = (kind: DisputeKind, amount: string, over: Partial<GatewayEvent> = {}): GatewayEvent => {
    const type = disputeWireType(kind)
    return {
      callback_id: `cb_${kind}_${amount}`, type, status: "approved", amount, currency: "EUR", received_at: AT, outside_medusa: true, warning: "w",
      confirmed: true, dispute: disputeView(type, { reasonCode: "RC1", date: AT })!, ...over,
    }
  }
  /** what each kind does to charged_back, on a sale of 54.85 with a dispute of 10.00 */
  const CHARGED_BACK: Record<DisputeKind, string> = {
    chargeback: "10.00", second_chargeback: "10.00", retrieval_request: "0.00", fraud_marker: "0.00",
    // alone (its chargeback not recorded yet): gives back nothing that was counted; after one, see the next test
    chargeback_reversal: "0.00",
  }

  it.each(DISPUTE_KINDS.map((k) => [k] as const))("%s: its own activity row with reason code and deadline, and its money", (kind) => {
    const d = base({ transactionType: "sale" })
    const [, row] = activityOf(input(d, [dispute(kind, "10.00")]))
    expect(row).toMatchObject({ kind: kind as ActivityKind, origin: "gateway", amount: "10.00", reason_code: "RC1", at: AT, confirmed_by_gateway: true })
    expect(row.deadline).toBe(disputeView(disputeWireType(kind), { date: AT })!.deadline)
    expect(eventKind(disputeWireType(kind))).toBe(kind)
    expect(summaryOf([input(d, [dispute(kind, "10.00")])])[0]).toMatchObject({ captured: "54.85", charged_back: CHARGED_BACK[kind] })
  })

  it("chargeback, second chargeback, reversal of the first: net charged back exact; retrieval and fraud move nothing", () => {
    const d = base({ transactionType: "sale" })
    const events = [
      dispute("retrieval_request", "54.85"), dispute("fraud_marker", "54.85"), dispute("chargeback", "20.10"),
      dispute("chargeback_reversal", "20.10"), dispute("second_chargeback", "20.10"),
    ]
    expect(summaryOf([input(d, events)])[0]).toMatchObject({ captured: "54.85", refunded: "0.00", charged_back: "20.10" })
    expect(summaryOf([input(d, events.slice(0, 4))])[0]).toMatchObject({ charged_back: "0.00" })
    expect(summaryOf([input(d, [dispute("chargeback", "20.10"), dispute("chargeback_reversal", "5.05")])])[0]).toMatchObject({ charged_back: "15.05" })
    expect(activityOf(input(d, events)).map((a) => a.kind)).toEqual(["sale", "retrieval_request", "fraud_marker", "chargeback", "chargeback_reversal", "second_chargeback"])
  })

  it("an unconfirmed dispute (STATUS did not show it: forged, or a duplicate) is neither listed nor counted", () => {
    const d = base({ transactionType: "sale" })
    const events = [dispute("chargeback", "4.00"), dispute("chargeback", "999.00", { confirmed: false })]
    expect(summaryOf([input(d, events)])[0]).toMatchObject({ charged_back: "4.00" })
    expect(activityOf(input(d, events)).filter((a) => a.kind === "chargeback").map((a) => a.amount)).toEqual(["4.00"])
  })

  it("an unknown dispute-like word is another gateway event, never a chargeback that takes money", () => {
    expect(eventKind("dispute")).toBe("other")
    expect(eventKind("chargeback reversal")).toBe("chargeback_reversal")
  })
})

describe("threeDsState", () => {
  it("says what is known for each way a payment is made", () => {
    const d = base({})
    expect(threeDsState("hosted", d, false, false)).toBe("hosted_page")
    expect(threeDsState("hosted", d, true, false)).toBe("reported")
    expect(threeDsState("direct", d, false, false)).toBe("no_challenge")
    expect(threeDsState("direct", d, false, true)).toBe("challenge_completed")
    expect(threeDsState("direct", base({ nextAction: { type: "redirect", url: "https://acs" } }), false, false)).toBe("challenge_in_progress")
    expect(threeDsState("saved_card", d, false, false)).toBe("no_challenge")
    expect(threeDsState("rebill", d, false, false)).toBe("not_applicable")
    expect(threeDsState("renewal", d, false, false)).toBe("not_applicable")
  })
})

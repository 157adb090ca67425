/** What processing a recorded callback does (callback-plan.ts), case by case, without Medusa or the gateway. */
import type { CallbackRow } from "../../../modules/payneteasy/service"
import type { SessionInfo } from "../verify"
import { laterEventPlan, planCallback } from "../callback-plan"

const row = (over: Partial<CallbackRow> = {}) =>
  ({ id: "pnecb_1", source: "callback", outcome: "received", type: "sale", status: "approved", orderid: "1001", client_orderid: "payses_1",
    session_id: "payses_1", amount: "10.42", currency: "EUR", received_at: new Date("2026-01-01T00:00:00Z"), params: {}, ...over }) as CallbackRow
const session = { id: "payses_1", provider_id: "pp_payneteasy_payneteasy", payment_collection_id: "pay_col_1" } as SessionInfo
const notOurs = { ownOrder: false }

describe("planCallback", () => {
  it.each(["processed", "ignored", "flagged"] as const)("a row already %s is done: a redelivery changes nothing", (outcome) => {
    expect(planCallback(row({ outcome }), session, undefined, notOurs).plan).toEqual({ kind: "done" })
  })

  it("a shopper's return never counts as the outcome", () => {
    expect(planCallback(row({ source: "return" }), session, undefined, notOurs).plan).toMatchObject({ kind: "final", outcome: "ignored" })
  })

  it("an initial transaction of a known session is settled by STATUS; its callback status only triggers it", () => {
    expect(planCallback(row({ type: " PREAUTH ", status: "declined" }), session, undefined, notOurs).plan).toEqual({
      kind: "initial", callbackStatus: "declined", session, links: undefined,
    })
  })

  it("a later event on a known session is confirmed by STATUS first", () => {
    expect(planCallback(row({ type: "chargeback" }), session, undefined, notOurs).plan).toEqual({ kind: "confirm" })
  })

  it("payouts, card verifications and recurring charges go their own way by their client_orderid", () => {
    expect(planCallback(row({ client_orderid: "pnepo_01ABC" }), undefined, undefined, notOurs).plan.kind).toBe("payout")
  })

  it("no session: our approved payment is given back; the give-back's notice is ignored; another shop's approved one is flagged", () => {
    expect(planCallback(row(), undefined, undefined, { ownOrder: true }).plan).toEqual({ kind: "orphan" })
    expect(planCallback(row({ type: "void" }), undefined, undefined, { ownOrder: true }).plan).toMatchObject({ kind: "final", outcome: "ignored" })
    const flagged = planCallback(row(), undefined, undefined, notOurs)
    expect(flagged.plan).toMatchObject({ kind: "final", outcome: "flagged" })
    expect(flagged.warning).toMatch(/APPROVED sale .*orderid 1001/)
    // the payment log's one shape of ids, so that grep of one id tells the story (core/telemetry/payment-log.ts)
    expect(flagged.warning).toMatch(/\[payment_session=payses_1 gateway_order=1001 client_order=payses_1\]$/)
    const declined = planCallback(row({ status: "declined" }), undefined, undefined, notOurs)
    expect(declined.plan).toMatchObject({ kind: "final", outcome: "ignored" })
    expect(declined.warning).toMatch(/does not know/)
  })
})

describe("laterEventPlan", () => {
  it("a confirmed event is reflected with the gateway's values, never the callback's", () => {
    const event = { type: "chargeback", status: "approved", amount: "4.00", currency: "EUR", serial: "s-9" }
    const out = laterEventPlan(row({ type: "chargeback", amount: "999.00" }), session, { confirmed: true, event } as any)
    expect(out.plan).toMatchObject({ kind: "later", paymentCollectionId: "pay_col_1", fact: { amount: "4.00", serial: "s-9", type: "chargeback" } })
    expect(out.warning).toBeUndefined()
  })

  it.each([
    ["retrieval_request", { reasonCode: "RR-4", processedAt: "2026-11-25T13:00:00.000Z" }, { "reason-code": "forged" }, "RR-4"],
    ["fraud", {}, { "reason-code": "10.1" }, "10.1"],
    ["second_chargeback", {}, {}, null],
  ])("a confirmed dispute (%s) keeps STATUS's reason code and date, else the callback's reason code", (type, status, params, code) => {
    const event = { type, status: "approved", amount: "4.00", currency: "EUR", serial: "s-9", ...status }
    const out = laterEventPlan(row({ type, params }), session, { confirmed: true, event } as any)
    expect(out.plan).toMatchObject({ kind: "later", fact: { type, reasonCode: code, processedAt: (status as any).processedAt ?? null } })
  })

  it("an unconfirmed one is ignored, with a warning", () => {
    const out = laterEventPlan(row({ type: "chargeback" }), session, { confirmed: false, reason: "STATUS shows no such transaction" })
    expect(out.plan).toMatchObject({ kind: "final", outcome: "ignored", detail: "not confirmed by STATUS: STATUS shows no such transaction" })
    expect(out.warning).toMatch(/not confirmed/)
    expect(out.warning).toMatch(/\[payment_session=payses_1 gateway_order=1001 client_order=payses_1\]$/)
  })
})

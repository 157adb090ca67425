/**
 * What a payment link may pay (link-state.ts) and which session it resumes (resume.ts): the rules the page and the
 * store route decide on, without the app. Each case names the record that makes the difference.
 */
import { linkState, type LinkFacts } from "../link-state"
import { resumeDecision, type LinkSession } from "../resume"

const order = { id: "order_1", status: "pending", customer_id: "cus_1" }
const collection = (over: Partial<NonNullable<LinkFacts["collection"]>> = {}) => ({
  id: "pay_col_1", status: "not_paid", amount: "10.42", currency_code: "eur", payments: [], ...over,
})

describe("linkState", () => {
  it("an order's unpaid collection is payable for exactly its amount, in minor units", () => {
    expect(linkState({ collection: collection(), order })).toEqual({ state: "payable", amount: "10.42", amountMinor: 1042n, currency: "EUR" })
    expect(linkState({ collection: collection({ amount: { value: "1500", precision: 20 }, currency_code: "jpy" }), order })).toMatchObject({ amount: "1500", amountMinor: 1500n })
    expect(linkState({ collection: collection({ amount: "1.2345", currency_code: "kwd" }), order })).toMatchObject({ amount: "1.235", amountMinor: 1235n })
  })

  it("never more than the order still owes: the pending difference caps the collection's amount; nothing owed, nothing payable", () => {
    // an edit's collection made for 16.84, then the rest of the old Payment (6.42) captured: 10.42 is still owed
    const owes = (pending: unknown) => ({ ...order, summary: { pending_difference: 0, raw_pending_difference: pending } })
    expect(linkState({ collection: collection({ amount: "16.84" }), order: owes({ value: "10.42", precision: 20 }) })).toEqual({
      state: "payable", amount: "10.42", amountMinor: 1042n, currency: "EUR",
    })
    expect(linkState({ collection: collection({ amount: "16.84" }), order: owes("20") })).toMatchObject({ amount: "16.84", amountMinor: 1684n })
    expect(linkState({ collection: collection(), order: owes("0") })).toEqual({ state: "nothing_owed" })
    expect(linkState({ collection: collection(), order: owes({ value: "-6.42", precision: 20 }) })).toEqual({ state: "nothing_owed" })
    expect(linkState({ collection: collection(), order: { ...order, summary: { pending_difference: "0.01" } } })).toMatchObject({ amountMinor: 1n })
  })

  it("paid, authorized or holding a live Payment: paid", () => {
    for (const status of ["authorized", "partially_authorized", "partially_captured", "completed"]) {
      expect(linkState({ collection: collection({ status }), order })).toEqual({ state: "paid" })
    }
    expect(linkState({ collection: collection({ payments: [{ id: "pay_1", canceled_at: null }] }), order })).toEqual({ state: "paid" })
    // a canceled Payment holds nothing
    expect(linkState({ collection: collection({ payments: [{ id: "pay_1", canceled_at: "2026-01-01" }] }), order }).state).toBe("payable")
  })

  it("canceled, of a canceled order, or gone: expired, saying why", () => {
    expect(linkState({ collection: collection({ status: "canceled" }), order })).toEqual({ state: "expired", why: "canceled" })
    expect(linkState({ collection: collection(), order: { ...order, status: "canceled" } })).toEqual({ state: "expired", why: "order_canceled" })
    expect(linkState({})).toEqual({ state: "expired", why: "not_found" })
  })

  it("a cart's collection, one without an order, or a draft's: not an order's link", () => {
    expect(linkState({ collection: collection(), cartId: "cart_1" })).toEqual({ state: "not_an_order" })
    expect(linkState({ collection: collection(), order, cartId: "cart_1" })).toEqual({ state: "not_an_order" })
    expect(linkState({ collection: collection() })).toEqual({ state: "not_an_order" })
    expect(linkState({ collection: collection(), order: { ...order, is_draft_order: true } })).toEqual({ state: "not_an_order" })
  })

  it("zero (or unreadable) amount: nothing owed", () => {
    expect(linkState({ collection: collection({ amount: "0" }), order })).toEqual({ state: "nothing_owed" })
    expect(linkState({ collection: collection({ amount: "0.004" }), order })).toEqual({ state: "nothing_owed" })
    expect(linkState({ collection: collection({ amount: "abc" }), order })).toEqual({ state: "nothing_owed" })
  })
})

describe("resumeDecision", () => {
  const hosted = (over: Partial<LinkSession> = {}, data: Record<string, unknown> = {}): LinkSession => ({
    id: "payses_1", provider_id: "pp_payneteasy_auto", status: "pending", amount: "10.42",
    data: { flow: "hosted", redirectUrl: "https://gw/page/1", orderId: "9001", ...data }, ...over,
  })
  const want = { providerId: "pp_payneteasy_auto" }

  it("an open page of the same provider and amount is resumed: same session, same client order id", () => {
    expect(resumeDecision([hosted()], want, 1042n, "EUR")).toEqual({ kind: "reuse", sessionId: "payses_1", redirectUrl: "https://gw/page/1" })
    expect(resumeDecision([hosted({ status: "requires_more" })], want, 1042n, "EUR").kind).toBe("reuse")
  })

  it("a declined or canceled one took nothing: a new session", () => {
    expect(resumeDecision([hosted({ status: "error" })], want, 1042n, "EUR")).toEqual({ kind: "new" })
    expect(resumeDecision([hosted({ status: "canceled" })], want, 1042n, "EUR")).toEqual({ kind: "new" })
    expect(resumeDecision([], want, 1042n, "EUR")).toEqual({ kind: "new" })
  })

  it("another amount (the order was edited again) or another provider: a new session", () => {
    expect(resumeDecision([hosted({ amount: "5.00" })], want, 1042n, "EUR")).toEqual({ kind: "new" })
    expect(resumeDecision([hosted({ provider_id: "pp_payneteasy_payneteasy" })], want, 1042n, "EUR")).toEqual({ kind: "new" })
  })

  it("a saved card: its own session for the same card is resumed; one that reached the gateway for another card keeps the link busy", () => {
    const card = (cardId: string, data: Record<string, unknown> = {}) =>
      hosted({}, { card_id: cardId, flow: "hosted", redirectUrl: undefined, orderId: undefined, ...data })
    expect(resumeDecision([card("pnecard_a")], { ...want, cardId: "pnecard_a" }, 1042n, "EUR")).toEqual({ kind: "reuse_saved_card", sessionId: "payses_1" })
    expect(resumeDecision([card("pnecard_a", { orderId: "9002" })], { ...want, cardId: "pnecard_b" }, 1042n, "EUR")).toEqual({ kind: "busy", sessionId: "payses_1" })
    expect(resumeDecision([card("pnecard_a", { gatewayStatus: "unknown" })], want, 1042n, "EUR")).toEqual({ kind: "busy", sessionId: "payses_1" })
    expect(resumeDecision([card("pnecard_a")], { ...want, cardId: "pnecard_b" }, 1042n, "EUR")).toEqual({ kind: "new" })
    // a hosted page is not resumed for a saved-card payment
    expect(resumeDecision([hosted()], { ...want, cardId: "pnecard_a" }, 1042n, "EUR")).toEqual({ kind: "new" })
  })
})

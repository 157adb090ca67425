import { holdsBeforeCancel, medusaWouldCancel, refundsBeforeCancel, unsettledPaymentRefusal } from "../order-cancel"

const base = { session_id: "s", clientOrderId: "s", flow: "hosted", transactionType: "preauth", amount: "10.00", currency: "EUR", orderId: "1" }
const pay = (data: Record<string, unknown>, captures: string[] = [], provider_id = "pp_payneteasy_payneteasy") => ({
  id: "pay_1", provider_id, data: { ...base, ...data }, captures: captures.map((id) => ({ id })),
})

describe("unsettledPaymentRefusal", () => {
  it("lets an order through whose captures the gateway confirmed", () => {
    expect(unsettledPaymentRefusal("order_1", [pay({ captures: [{ id: "capt_1", amount: "4.00", status: "approved" }] }, ["capt_1"])])).toBeUndefined()
  })
  it("lets an order through with nothing captured, and a sale whatever its Capture rows", () => {
    expect(unsettledPaymentRefusal("order_1", [pay({})])).toBeUndefined()
    expect(unsettledPaymentRefusal("order_1", [pay({ transactionType: "sale" }, ["capt_1"])])).toBeUndefined()
  })
  it.each([
    ["a capture pending at the gateway", pay({ captures: [{ id: "capt_1", amount: "4.00", status: "processing", pending: true }] }, ["capt_1"])],
    ["a refund pending at the gateway", pay({ captures: [{ id: "capt_1", amount: "4.00", status: "approved" }], refunds: [{ id: "ref_1", amount: "1.00", status: "unknown", pending: true }] }, ["capt_1"])],
    ["a Capture row still waiting for the ledger (no entry yet)", pay({}, ["capt_1"])],
  ])("refuses in words while %s", (_what, payment) => {
    expect(unsettledPaymentRefusal("order_1", [payment])).toMatch(/^Order order_1 cannot be canceled yet: .*payment pay_1 is not confirmed by the gateway yet.*Nothing was changed/)
  })
  it("leaves other providers' payments to Medusa", () => {
    expect(unsettledPaymentRefusal("order_1", [pay({}, ["capt_1"], "pp_system_default")])).toBeUndefined()
  })
})

describe("medusaWouldCancel (Medusa's own cancel validation, mirrored)", () => {
  it.each([
    [{ id: "o", status: "pending" }, true],
    [{ id: "o", status: "pending", fulfillments: [{ canceled_at: "2026-12-01" }] }, true],
    [{ id: "o", status: "pending", fulfillments: [{ canceled_at: null }] }, false],
    [{ id: "o", status: "canceled" }, false],
    [{ id: "o", status: "completed" }, false],
  ])("%j → %s", (order, would) => expect(medusaWouldCancel(order)).toBe(would))
})

describe("refundsBeforeCancel", () => {
  const p = (captures: string[], refunds: string[], provider_id = "pp_payneteasy_payneteasy") => ({
    id: "pay_1", provider_id, currency_code: "eur",
    captures: captures.map((a, i) => ({ id: `c${i}`, raw_amount: { value: a, precision: 20 } })),
    refunds: refunds.map((a, i) => ({ id: `r${i}`, raw_amount: { value: a, precision: 20 } })),
  })
  it("returns exactly what was captured and not refunded, as a decimal string", () => {
    expect(refundsBeforeCancel([p(["4.2", "0.1"], ["1.05"])])).toEqual([{ payment_id: "pay_1", amount: "3.25" }])
    expect(refundsBeforeCancel([p(["10.42"], [])])).toEqual([{ payment_id: "pay_1", amount: "10.42" }])
  })
  it("returns nothing when nothing is left, and leaves other providers' payments to Medusa", () => {
    expect(refundsBeforeCancel([p(["4.2"], ["4.2"])])).toEqual([])
    expect(refundsBeforeCancel([p([], [])])).toEqual([])
    expect(refundsBeforeCancel([p(["4.2"], [], "pp_system_default")])).toEqual([])
  })
})

describe("holdsBeforeCancel", () => {
  const money = (a: string) => ({ value: a, precision: 20 })
  const p = (data: Record<string, unknown>, captures: string[] = [], amount = "10.00", provider_id = "pp_payneteasy_payneteasy") => ({
    id: "pay_1", provider_id, currency_code: "eur", raw_amount: money(amount), data: { ...base, ...data },
    captures: captures.map((a, i) => ({ id: `c${i}`, raw_amount: money(a) })),
  })
  it("releases an uncaptured preauth, and the uncaptured rest of a partly captured one", () => {
    expect(holdsBeforeCancel([p({})])).toEqual(["pay_1"])
    expect(holdsBeforeCancel([p({}, ["2.00", "3.00"])])).toEqual(["pay_1"])
  })
  it("releases nothing fully captured, nothing of a sale, nothing never sent, nothing of other providers", () => {
    expect(holdsBeforeCancel([p({}, ["4.00", "6.00"])])).toEqual([])
    expect(holdsBeforeCancel([p({ transactionType: "sale" })])).toEqual([])
    expect(holdsBeforeCancel([p({ orderId: undefined })])).toEqual([])
    expect(holdsBeforeCancel([p({}, [], "10.00", "pp_system_default")])).toEqual([])
  })
  it("releases nothing released or pending, and again what the gateway declined", () => {
    expect(holdsBeforeCancel([p({ voided: true })])).toEqual([])
    expect(holdsBeforeCancel([p({ voided: true, voidEntry: { id: "void", amount: "all", status: "approved", pending: false } })])).toEqual([])
    expect(holdsBeforeCancel([p({ voided: true, voidEntry: { id: "void", amount: "all", status: "processing", pending: true } })])).toEqual([])
    expect(holdsBeforeCancel([p({ voided: true, voidEntry: { id: "void", amount: "all", status: "declined", pending: false } })])).toEqual(["pay_1"])
    expect(holdsBeforeCancel([p({ voided: true, refunds: [{ id: "cancel", amount: "all remaining", status: "error", pending: false }] })])).toEqual(["pay_1"])
  })
})

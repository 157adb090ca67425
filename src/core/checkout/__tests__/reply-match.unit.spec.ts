/** A STATUS reply changes a payment only when it is about that payment (reply-match.ts; issue 32 part 6). */
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { idMismatch, replyMismatch } from "../reply-match"
import { fromStatus } from "../session-outcome"
import type { SessionData } from "../session-data"

const mine = { clientOrderId: "payses_1", orderId: "1000001", amount: "10.42", currency: "EUR" }
const reply = (over: Record<string, string | undefined> = {}) => ({
  type: "status-response", status: "approved", "transaction-type": "preauth", "merchant-order-id": "payses_1",
  "paynet-order-id": "1000001", amount: "10.42", "initial-amount": "10.42", currency: "EUR", ...over,
})

describe("replyMismatch", () => {
  it.each([
    ["the same payment", {}, undefined],
    ["after a partial return (amount lower, initial-amount the same)", { amount: "5.00" }, undefined],
    ["amount written differently", { amount: "10.420", "initial-amount": "10.420" }, undefined],
    ["currency in lower case", { currency: "eur" }, undefined],
    ["fields the reply does not carry", { "merchant-order-id": undefined, amount: undefined, "initial-amount": undefined, currency: undefined }, undefined],
    ["another client order id", { "merchant-order-id": "payses_2" }, /another client order id/],
    ["another gateway order", { "paynet-order-id": "1000002" }, /another gateway order/],
    ["another currency", { currency: "USD" }, /another currency/],
    ["another amount", { amount: "99.00", "initial-amount": "99.00" }, /another amount/],
    ["an amount that is not a number", { amount: "lots", "initial-amount": "lots" }, /another amount/],
  ] as const)("%s", (_name, over, expected) => {
    const found = replyMismatch(reply(over as Record<string, string | undefined>), mine)
    if (expected === undefined) expect(found).toBeUndefined()
    else expect(found).toMatch(expected)
  })

  it("a session with no gateway order yet accepts the reply's (ids only from the gateway), but never another client order id", () => {
    expect(replyMismatch(reply({ "paynet-order-id": "1000009" }), { ...mine, orderId: undefined })).toBeUndefined()
    expect(idMismatch(reply({ "merchant-order-id": "x" }), { clientOrderId: "payses_1" })).toMatch(/another client order id/)
  })
})

describe("fromStatus with a reply about another payment", () => {
  const data = { session_id: "payses_1", flow: "direct", transactionType: "preauth", ...mine } as SessionData
  it("is never authorized: pending, the data unchanged but for the mismatch", () => {
    const out = fromStatus(data, reply({ "merchant-order-id": "payses_2", "paynet-order-id": "1000002" }) as any)
    expect(out.status).toBe(PaymentSessionStatus.PENDING)
    expect(out.data).toMatchObject({ ...data, replyMismatch: { detail: expect.stringMatching(/another client order id/) } })
    expect(out.data.gatewayStatus).toBeUndefined()
  })
  it("the matching reply authorizes as before", () => {
    expect(fromStatus(data, reply() as any).status).toBe(PaymentSessionStatus.AUTHORIZED)
  })
})

import { cardDataRefusal, cardLikeFields } from "../card-like"

describe("cardLikeFields: card data in storefront session data, by path, never by value", () => {
  it("finds security codes, card numbers and card objects, at any depth", () => {
    expect(cardLikeFields({ card_id: "pnecard_0123456789AB", cvv2: "123" })).toEqual(["data.cvv2"])
    expect(cardLikeFields({ payer: { CVC: 123 } })).toEqual(["data.payer.CVC"])
    expect(cardLikeFields({ card: { number: "4111" } })).toEqual(["data.card"])
    expect(cardLikeFields({ note: "4444 5555 6666 1111" })).toEqual(["data.note"])
    expect(cardLikeFields({ list: [{ pan: "x" }] })).toEqual(["data.list[0].pan"])
    expect(cardLikeFields({ credit_card_number: "4111111111111111", security_code: "1" })).toEqual(["data.credit_card_number", "data.security_code"])
  })

  it("leaves what a storefront legitimately sends: ids, a payer, a phone, digits that are not a card number, null keys", () => {
    const data = {
      card_id: "pnecard_0123456789AB", payment_method: "pnecard_0123456789AB", off_session: true, save_card: true, cvv2: null,
      payer: { email: "a@b.c", phone: "+493012345678901", postal_code: "10117", ip: "203.0.113.7" },
      order_ref: "4444555566661112", // 16 digits failing the Luhn check
    }
    expect(cardLikeFields(data)).toEqual([])
    expect(cardLikeFields(undefined)).toEqual([])
  })

  it("the refusal names the fields and the routes, not the values", () => {
    const text = cardDataRefusal(cardLikeFields({ cvv2: "987", card: { number: "4444555566661111" } }))
    expect(text).toMatch(/data\.cvv2, data\.card/)
    expect(text).toMatch(/\/store\/payneteasy\/payment-sessions\/\{id\}\/saved-card/)
    expect(text).not.toMatch(/987|4444555566661111/)
  })
})

import { parseCard, withoutTransient } from "../card"
import { payerFields, storablePayer, UNKNOWN_IP } from "../payer"
import { parseSessionData } from "../session-data"

const guest = { email: "g@x.test", phone: "+4930", address_1: "1 St", city: "Berlin", postal_code: "10115", country_code: "de" }

describe("payer fields", () => {
  it("only known payer fields are kept: unknown keys (e.g. a card number) are dropped; non-objects store null", () => {
    expect(storablePayer({ ...guest, credit_card_number: "4111111111111111", cvv2: "123" })).toEqual(guest)
    expect(storablePayer("4111111111111111")).toBeNull()
    expect(storablePayer(undefined)).toBeUndefined()
  })

  it("guest: from the storefront's payer (the cart's data), country upper-cased, IP fallback", () => {
    expect(payerFields(guest, undefined)).toMatchObject({
      email: "g@x.test", phone: "+4930", address1: "1 St", city: "Berlin", zip_code: "10115", country: "DE", ipaddress: UNKNOWN_IP,
    })
  })

  it("logged-in customer fills what the storefront did not send; the route's IP wins", () => {
    const out = payerFields({ address_1: "1 St", city: "B", postal_code: "1", country_code: "de" }, {
      email: "c@x.test", phone: "+1", first_name: "C", billing_address: null,
    }, "::ffff:10.1.2.3")
    expect(out).toMatchObject({ email: "c@x.test", phone: "+1", first_name: "C", ipaddress: "10.1.2.3" })
  })

  it("says exactly what is missing", () => {
    expect(() => payerFields({ email: "a@b.c" }, undefined)).toThrow(/phone, address1, city, zip_code, country/)
  })
})

describe("card fields", () => {
  it("normalises and never puts values into errors", () => {
    expect(parseCard({ number: "4111 1111-1111 1111", cvv: "123", expMonth: 3, expYear: "31", holder: " A B " })).toEqual({
      number: "4111111111111111", cvv: "123", expMonth: "03", expYear: "2031", holder: "A B",
    })
    try {
      parseCard({ number: "4111 1111 1111 111x", cvv: "98765", expMonth: "13", expYear: "1", holder: "" })
      throw new Error("should have failed")
    } catch (e) {
      expect((e as Error).message).toMatch(/card.number/)
      expect((e as Error).message).not.toMatch(/4111|98765/)
    }
  })

  it("refuses a card number that fails the Luhn check (a typo is not sent to the gateway), naming the field only", () => {
    expect(() => parseCard({ number: "4444555566661112", cvv: "123", expMonth: "12", expYear: "2031", holder: "A B" })).toThrow(/card\.number.*Luhn/)
    expect(() => parseCard({ number: "4444555566661112", cvv: "123", expMonth: "12", expYear: "2031", holder: "A B" })).not.toThrow(/4444/)
    expect(parseCard({ number: "4444555566661111", cvv: "123", expMonth: "12", expYear: "2031", holder: "A B" }).number).toBe("4444555566661111")
  })

  it("transient keys are removed before data is parsed or returned", () => {
    const data = withoutTransient({ card: { number: "4111111111111111" }, client_ip: "1.2.3.4", browser: {}, session_id: "payses_1" })
    expect(data).toEqual({ session_id: "payses_1" })
  })
})

describe("session data", () => {
  it("keeps unknown storefront keys, refuses malformed data without echoing it", () => {
    const d = parseSessionData({ session_id: "payses_1", clientOrderId: "payses_1", flow: "hosted", transactionType: "sale", amount: "1.00", currency: "EUR", payer: { email: "x" } })
    expect(d.payer).toEqual({ email: "x" })
    expect(() => parseSessionData({ session_id: "payses_1", amount: "4111111111111111" })).toThrow(/clientOrderId/)
    expect(() => parseSessionData({ session_id: "payses_1", amount: "4111111111111111" })).not.toThrow(/4111/)
  })
})

/**
 * control checksum: known-answer vectors (gateway notes §6.1, §6.3; recomputed with `printf … | sha1sum`) and the
 * table-driven rules — trimming, amount in minor units, capture/return with and without amount, STATUS with an
 * empty orderid, a group id in the endpoint slot.
 */
import { createHash } from "node:crypto"
import { computeControl, controlTermsString } from "../control"
import { GatewayInputError } from "../errors"
import { OPERATIONS } from "../operations"

const DOC_KEY = "B17F59B4-A7DC-41B4-8FF9-37D986B43D20"
const sha1 = (s: string) => createHash("sha1").update(s).digest("hex")
const ctx = { endpoint: "1111", login: "merchant-login", controlKey: DOC_KEY }

describe("control", () => {
  it("matches the vendor doc example for sale (notes §6.1)", () => {
    const fields = { client_orderid: "902B4FF5", amount: "10.42", currency: "EUR", email: "john.smith@gmail.com" }
    expect(controlTermsString(OPERATIONS.SALE.control, fields, ctx)).toBe("1111902B4FF51042john.smith@gmail.com")
    expect(computeControl(OPERATIONS.SALE.control, fields, ctx)).toBe("c6bdd88a78834ef4b863b088827a459f039e8257")
  })

  it("trims every value before hashing but uses the key byte-exact", () => {
    const fields = { client_orderid: " 902B4FF5\n", amount: " 10.42 ", currency: "EUR ", email: "\tjohn.smith@gmail.com " }
    expect(computeControl(OPERATIONS.SALE.control, fields, { ...ctx, endpoint: " 1111 " })).toBe(
      "c6bdd88a78834ef4b863b088827a459f039e8257",
    )
    expect(computeControl(OPERATIONS.SALE.control, fields, { ...ctx, controlKey: DOC_KEY.toLowerCase() })).not.toBe(
      "c6bdd88a78834ef4b863b088827a459f039e8257",
    )
  })

  it("puts a group id in the endpoint slot (lonapay sandbox vector, notes §6.3)", () => {
    const fields = { client_orderid: "902B4FF56", amount: "10.42", currency: "EUR", email: "john.smith@gmail.com" }
    expect(controlTermsString(OPERATIONS.SALEFORM.control, fields, { ...ctx, endpoint: "2545" })).toBe(
      "2545902B4FF561042john.smith@gmail.com",
    )
    expect(computeControl(OPERATIONS.SALEFORM.control, fields, { ...ctx, endpoint: "2545" })).toBe(
      sha1("2545902B4FF561042john.smith@gmail.com" + DOC_KEY),
    )
  })

  it("computes the amount in minor units by the currency exponent", () => {
    const base = { client_orderid: "o1", email: "a@b.c" }
    expect(controlTermsString(OPERATIONS.SALE.control, { ...base, amount: "0.29", currency: "EUR" }, ctx)).toBe("1111o129a@b.c")
    expect(controlTermsString(OPERATIONS.SALE.control, { ...base, amount: "0.99", currency: "USD" }, ctx)).toBe("1111o199a@b.c")
    expect(controlTermsString(OPERATIONS.SALE.control, { ...base, amount: "1000", currency: "JPY" }, ctx)).toBe("1111o11000a@b.c")
    expect(controlTermsString(OPERATIONS.SALE.control, { ...base, amount: "1.234", currency: "KWD" }, ctx)).toBe("1111o11234a@b.c")
    expect(() => controlTermsString(OPERATIONS.SALE.control, { ...base, amount: "10.5", currency: "JPY" }, ctx)).toThrow(GatewayInputError)
  })

  it("adds amount and currency to capture and return only when they are sent", () => {
    const ids = { client_orderid: "co-1", orderid: "1969106" }
    for (const op of ["CAPTURE", "RETURN"] as const) {
      const terms = OPERATIONS[op].control
      expect(controlTermsString(terms, ids, ctx)).toBe("merchant-loginco-11969106")
      expect(computeControl(terms, ids, ctx)).toBe(sha1("merchant-loginco-11969106" + DOC_KEY))
      const partial = { ...ids, amount: "5.00", currency: "EUR" }
      expect(controlTermsString(terms, partial, ctx)).toBe("merchant-loginco-11969106500EUR")
      expect(computeControl(terms, partial, ctx)).toBe(sha1("merchant-loginco-11969106500EUR" + DOC_KEY))
    }
  })

  it("hashes STATUS with an empty orderid when it is absent", () => {
    expect(controlTermsString(OPERATIONS.STATUS.control, { client_orderid: "902B4FF56" }, ctx)).toBe("merchant-login902B4FF56")
    expect(computeControl(OPERATIONS.STATUS.control, { client_orderid: "902B4FF56" }, ctx)).toBe(
      sha1("merchant-login902B4FF56" + DOC_KEY),
    )
    // The cogent status vector's terms (notes §6.3): login + client_orderid + orderid.
    expect(
      controlTermsString(OPERATIONS.STATUS.control, { client_orderid: "902B4FF56", orderid: "1969106" }, { ...ctx, login: "CogentPayments_LP" }),
    ).toBe("CogentPayments_LP902B4FF561969106")
  })

  it("uses the hyphenated client-order-id for the 3DS uploads and login+cardrefid for CARDINFO", () => {
    const tds = { "client-order-id": "co-9", orderid: "77" }
    expect(controlTermsString(OPERATIONS.TDS_UPLOAD_CRES_RESULT.control, tds, ctx)).toBe("merchant-loginco-977")
    expect(controlTermsString(OPERATIONS.CARDINFO.control, { cardrefid: "555" }, ctx)).toBe("merchant-login555")
    expect(
      controlTermsString(OPERATIONS.REBILL.control, { client_orderid: "r1", cardrefid: "555", amount: "1.00", currency: "EUR" }, ctx),
    ).toBe("merchant-loginr1555100EUR")
  })

  it("returns 40 lowercase hex characters", () => {
    expect(computeControl(OPERATIONS.VOID.control, { client_orderid: "a", orderid: "b" }, ctx)).toMatch(/^[0-9a-f]{40}$/)
  })
})

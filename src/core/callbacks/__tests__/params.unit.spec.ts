import { coreFields, eventKey, MalformedCallbackError, readParams, storableParams } from "../params"

const base = {
  status: "approved", orderid: "314201", client_orderid: "payses_01ABC", merchant_order: "payses_01ABC",
  type: "sale", amount: "10.42", currency: "eur", control: "10b4c5aa", error_message: "null",
}

describe("callback params", () => {
  it("merges query and body, and reads the core fields (merchant_order is the same as client_orderid)", () => {
    const params = readParams({ status: "approved", orderid: "314201" }, { ...base })
    const core = coreFields(params, { requireType: true })
    expect(core).toEqual({
      status: "approved", orderid: "314201", clientOrderId: "payses_01ABC", type: "sale", amount: "10.42",
      currency: "EUR", errorCode: undefined, errorMessage: undefined,
    })
  })

  it("falls back to merchant_order when client_orderid is absent", () => {
    const { client_orderid: _c, ...rest } = base
    expect(coreFields(readParams(rest), { requireType: true }).clientOrderId).toBe("payses_01ABC")
  })

  it("refuses a field given twice with different values (which one did the control cover?)", () => {
    expect(() => readParams({ status: ["approved", "declined"] })).toThrow(MalformedCallbackError)
    expect(() => readParams({ status: "approved" }, { status: "declined" })).toThrow(MalformedCallbackError)
    expect(readParams({ status: ["approved", "approved"] })).toEqual({ status: "approved" })
  })

  it("refuses nested objects and missing core fields", () => {
    expect(() => readParams({ status: { a: 1 } })).toThrow(MalformedCallbackError)
    const { control: _c, ...noControl } = base
    expect(() => coreFields(readParams(noControl), { requireType: true })).toThrow(/control/)
    const { type: _t, ...noType } = base
    expect(() => coreFields(readParams(noType), { requireType: true })).toThrow(/type/)
    expect(coreFields(readParams(noType), { requireType: false }).type).toBe("")
  })

  it("refuses client_orderid and merchant_order that disagree", () => {
    expect(() => coreFields(readParams({ ...base, merchant_order: "payses_OTHER" }), { requireType: true })).toThrow(
      /differ/
    )
  })

  it("stores no control and no card number", () => {
    const stored = storableParams(readParams({ ...base, "credit-card-number": "4444555566661111", comment: "card 4444555566661111" }))
    expect(stored.control).toBeUndefined()
    expect(JSON.stringify(stored)).not.toContain("4444555566661111")
    expect(stored.orderid).toBe("314201")
  })
})

describe("callback event key (what tells two later events apart)", () => {
  const key = (p: Record<string, string>) => {
    const params = readParams(p)
    return eventKey(coreFields(params, { requireType: true }), params)
  }
  const reversal = { ...base, type: "reversal", "processor-tx-id": "PNTEST-314201" }

  it("is the same for byte-identical redeliveries (20 copies → one key)", () => {
    const keys = new Set(Array.from({ length: 20 }, () => key({ ...reversal })))
    expect([...keys]).toEqual(["10.42|PNTEST-314201"])
  })

  it("differs for two partial returns of different amounts on the same order, type and status", () => {
    expect(key({ ...reversal, amount: "3.00" })).not.toBe(key({ ...reversal, amount: "2.00" }))
  })

  it("uses the gateway serial number when the callback carries one, else processor-tx-id", () => {
    expect(key({ ...reversal, "serial-number": "sn-1" })).toBe("10.42|sn-1")
    expect(key({ ...reversal, "serial-number": "sn-1" })).not.toBe(key({ ...reversal, "serial-number": "sn-2" }))
    expect(key({ ...reversal, "serial-number": " " })).toBe("10.42|PNTEST-314201")
  })

  it("is never null, so the unique index cannot be bypassed by missing fields", () => {
    const { amount: _a, ...noAmount } = base
    expect(key(noAmount)).toBe("|")
  })
})

/**
 * Callback / final-redirect control (gateway notes §6.3, §7): vendor vectors, the merchant_order fallback,
 * case-insensitive hex, and refusal of missing or tampered fields.
 */
import { createHash } from "node:crypto"
import { callbackControl, verifyCallback } from "../callback"

const KEY = "test-merchant-control"

describe("callbackControl", () => {
  it("matches the vendor unit-test vectors", () => {
    expect(callbackControl("approved", "1234567", "hf-abc", KEY)).toBe("652ace404c4dfe8bba069ecee594ec23a89340e1")
    expect(callbackControl("", "", "", KEY)).toBe("1a66987ac24e927ff2979f83a41cb818936a9e62")
  })
  it("is sha1(status + orderid + client_orderid + key)", () => {
    const key = "B17F59B4-A7DC-41B4-8FF9-37D986B43D20"
    expect(callbackControl("approved", "313635", "902B4FF5", key)).toBe(
      createHash("sha1").update("approved313635902B4FF5" + key).digest("hex"),
    )
  })
})

describe("verifyCallback", () => {
  const good = {
    status: "approved",
    orderid: "1234567",
    client_orderid: "hf-abc",
    merchant_order: "hf-abc",
    control: "652ace404c4dfe8bba069ecee594ec23a89340e1",
    type: "sale",
    amount: "10.42",
  }
  it("accepts a correctly signed callback, also with upper-case hex or only merchant_order", () => {
    expect(verifyCallback(good, KEY)).toBe(true)
    expect(verifyCallback({ ...good, control: good.control.toUpperCase() }, KEY)).toBe(true)
    const { client_orderid: _, ...onlyMerchantOrder } = good
    expect(verifyCallback(onlyMerchantOrder, KEY)).toBe(true)
    expect(verifyCallback({ ...good, control: [good.control] }, KEY)).toBe(true)
  })
  it("refuses a wrong key, tampered fields, missing fields and odd lengths", () => {
    expect(verifyCallback(good, "other-key")).toBe(false)
    expect(verifyCallback({ ...good, status: "declined" }, KEY)).toBe(false)
    expect(verifyCallback({ ...good, orderid: "1234568" }, KEY)).toBe(false)
    expect(verifyCallback({ ...good, client_orderid: "hf-abd" }, KEY)).toBe(false)
    for (const missing of ["status", "orderid", "control"] as const) {
      const { [missing]: _, ...rest } = good
      expect(verifyCallback(rest, KEY)).toBe(false)
    }
    const { client_orderid: _c, merchant_order: _m, ...noOrder } = good
    expect(verifyCallback(noOrder, KEY)).toBe(false)
    expect(verifyCallback({ ...good, control: good.control.slice(0, 39) }, KEY)).toBe(false)
    expect(verifyCallback({ ...good, control: good.control + "0" }, KEY)).toBe(false)
    expect(verifyCallback({ ...good, control: [good.control, "0".repeat(40)] }, KEY)).toBe(false)
    expect(verifyCallback({ status: "", orderid: "", client_orderid: "", control: "1a66987ac24e927ff2979f83a41cb818936a9e62" }, KEY)).toBe(false)
    expect(verifyCallback(good, "")).toBe(false)
  })
})

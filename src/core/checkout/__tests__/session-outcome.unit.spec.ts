/**
 * What a STATUS reply does to the session data (session-outcome.ts). stripOutcome is written for speed (a literal
 * that opens with the reset keys, bench "provider authorize"), so its result is pinned here against the plain
 * formula it replaces: every key of the data kept, the previous outcome cleared, `set` winning.
 */
import fc from "fast-check"
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import type { StatusReply } from "../../connection"
import { parseSessionData, type SessionData } from "../session-data"
import { fromStatus, stripOutcome } from "../session-outcome"

const base = (extra: Record<string, unknown> = {}): SessionData =>
  parseSessionData({
    session_id: "payses_01", clientOrderId: "payses_01", attempt: 1, orderId: "900", flow: "hosted",
    transactionType: "sale", amount: "10.42", currency: "EUR", ...extra,
  })

const reply = (fields: Record<string, string>): StatusReply => ({ type: "status-response", ...fields }) as unknown as StatusReply

describe("stripOutcome", () => {
  it("gives what { ...data, nextAction: null, error: null, ...set } gives, for any data and set (property)", () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.dictionary(fc.string(), fc.string()))
    const key = fc.oneof(fc.constantFrom("nextAction", "error", "gatewayStatus", "orderId", "attempt", "payer"), fc.string())
    fc.assert(
      fc.property(fc.dictionary(key, value), fc.option(fc.dictionary(key, value), { nil: undefined }), (extra, set) => {
        const data = { ...base(), ...extra } as SessionData
        const got = stripOutcome(data, set)
        expect(got).toEqual({ ...data, nextAction: null, error: null, ...set })
        expect(Object.keys(got).sort()).toEqual(Object.keys({ ...data, nextAction: null, error: null, ...set }).sort())
      }),
      { numRuns: 300 },
    )
  })

  it("clears the previous outcome and leaves the data it was given alone", () => {
    const data = base({ nextAction: { type: "redirect", url: "https://acs.example/1" }, error: { message: "declined" } })
    const out = stripOutcome(data, { gatewayStatus: "processing" })
    expect(out).toMatchObject({ nextAction: null, error: null, gatewayStatus: "processing", orderId: "900" })
    expect(data.nextAction).toEqual({ type: "redirect", url: "https://acs.example/1" })
    expect(data.error).toEqual({ message: "declined" })
  })
})

describe("fromStatus", () => {
  it("an approved sale is captured; the earlier 3-D Secure step and error are cleared, the order id taken", () => {
    const data = base({ orderId: undefined, nextAction: { type: "html", html: "<form/>" }, error: { message: "x" }, payer: { email: "a@b.c" } })
    const out = fromStatus(data, reply({ status: "approved", "transaction-type": "sale", "paynet-order-id": "901" }))
    expect(out.status).toBe(PaymentSessionStatus.CAPTURED)
    expect(out.data).toMatchObject({ gatewayStatus: "approved", orderId: "901", nextAction: null, error: null, payer: { email: "a@b.c" } })
  })

  it("a payer step becomes the next action (requires_more)", () => {
    const out = fromStatus(base(), reply({ status: "processing", "redirect-to": " https://acs.example/2 " }))
    expect(out.status).toBe(PaymentSessionStatus.REQUIRES_MORE)
    expect(out.data.nextAction).toEqual({ type: "redirect", url: "https://acs.example/2" })
  })

  it("a decline is an error carrying the gateway's code and reason", () => {
    const out = fromStatus(base(), reply({ status: "declined", "error-code": "302", "error-message": " Insufficient funds " }))
    expect(out.status).toBe(PaymentSessionStatus.ERROR)
    expect(out.data.error).toEqual({ code: "302", message: "Insufficient funds" })
    expect(out.data.nextAction).toBeNull()
  })
})

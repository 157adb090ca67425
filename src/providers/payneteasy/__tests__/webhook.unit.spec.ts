import { PaymentActions } from "@medusajs/framework/utils"
import { callbackControl } from "../../../gateway"
import { PaynetEasyProviderService } from "../provider"

const KEY = "B17F59B4-A7DC-41B4-8FF9-37D986B43D20"
const provider = new PaynetEasyProviderService({}, {
  baseUrl: "http://127.0.0.1:9/paynet",
  endpointId: "1111",
  login: "sandbox-merchant",
  controlKey: KEY,
  backendUrl: "http://127.0.0.1:9000",
})

function signed(p: Record<string, string>) {
  return { ...p, control: callbackControl(p.status, p.orderid, p.client_orderid, KEY) }
}
const call = (data: Record<string, unknown>) => provider.getWebhookActionAndData({ data, rawData: "", headers: {} })

describe("getWebhookActionAndData (pure: verify control, map through the status table)", () => {
  it.each([
    ["approved", "preauth", PaymentActions.AUTHORIZED],
    ["approved", "sale", PaymentActions.AUTHORIZED], // never SUCCESSFUL: Medusa would capture the callback's amount
    ["declined", "sale", PaymentActions.FAILED],
    ["filtered", "preauth", PaymentActions.FAILED],
    ["error", "preauth", PaymentActions.FAILED],
    ["processing", "sale", PaymentActions.PENDING],
    ["unknown", "sale", PaymentActions.PENDING],
    ["weird", "preauth", PaymentActions.PENDING],
  ])("%s %s → %s with the session id and never the callback's amount", async (status, type, action) => {
    const out = await call(signed({ status, type, orderid: "1000001", client_orderid: "payses_01ABC-a2", amount: "10.4", currency: "EUR" }))
    expect(out).toEqual({ action, data: { session_id: "payses_01ABC", amount: "0" } })
  })

  it("the amount is not covered by control: a tampered amount changes nothing in the result", async () => {
    const genuine = signed({ status: "approved", type: "sale", orderid: "7", client_orderid: "payses_T", amount: "10.42", currency: "EUR" })
    const tampered = { ...genuine, amount: "0.01" }
    expect(await call(tampered)).toEqual(await call(genuine))
    expect((await call(tampered)).action).toBe(PaymentActions.AUTHORIZED)
  })

  it.each([
    ["forged control", { ...signed({ status: "approved", type: "sale", orderid: "1", client_orderid: "payses_A" }), control: "0".repeat(40) }],
    ["control for another status", { ...signed({ status: "declined", type: "sale", orderid: "1", client_orderid: "payses_A" }), status: "approved" }],
    ["no control", { status: "approved", type: "sale", orderid: "1", client_orderid: "payses_A" }],
    ["foreign client_orderid", signed({ status: "approved", type: "sale", orderid: "1", client_orderid: "order-17" })],
    ["capture callback (not an initial transaction)", signed({ status: "approved", type: "capture", orderid: "1", client_orderid: "payses_A" })],
    ["reversal callback", signed({ status: "approved", type: "reversal", orderid: "1", client_orderid: "payses_A" })],
    ["empty", {}],
  ])("%s → not_supported", async (_name, data) => {
    expect(await call(data as Record<string, unknown>)).toEqual({ action: PaymentActions.NOT_SUPPORTED })
  })

  it("is pure: the same input twice gives the same answer", async () => {
    const p = signed({ status: "approved", type: "preauth", orderid: "9", client_orderid: "payses_Z", amount: "1.00", currency: "USD" })
    expect(await call(p)).toEqual(await call(p))
  })
})

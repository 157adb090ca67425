import { callbackControl } from "../../../gateway"
import { registrationsVerifying } from "../callback-keys"
import { OURS, paymentConfig, providerOptions } from "./payment-config"

describe("registrationsVerifying (the callback route's in-memory check)", () => {
  // Two registrations of one merchant account share a key; a third has its own.
  const configModule = paymentConfig([
    { resolve: OURS, id: "hosted", options: providerOptions({ controlKey: "KEY-A" }) },
    { resolve: OURS, id: "direct", options: providerOptions({ controlKey: "KEY-A" }) },
    { resolve: OURS, id: "other", options: providerOptions({ controlKey: "KEY-B" }) },
  ])
  const message = (key: string) => {
    const base = { status: "approved", orderid: "902133", client_orderid: "payses_01", merchant_order: "payses_01", type: "sale" }
    return { ...base, control: callbackControl(base.status, base.orderid, base.client_orderid, key) }
  }

  it("names the first registration, in medusa-config order, whose key verifies the control", () => {
    expect(registrationsVerifying(configModule, message("KEY-A"))[0]).toBe("pp_payneteasy_hosted")
    expect(registrationsVerifying(configModule, message("KEY-B"))[0]).toBe("pp_payneteasy_other")
  })

  it("answers undefined for a control under no registration's key, and for a changed field", () => {
    expect(registrationsVerifying(configModule, message("KEY-C"))[0]).toBeUndefined()
    expect(registrationsVerifying(configModule, { ...message("KEY-A"), status: "declined" })[0]).toBeUndefined()
  })

  it("lists every registration whose key verifies, in medusa-config order (the session's must be one of them)", () => {
    expect(registrationsVerifying(configModule, message("KEY-A"))).toEqual(["pp_payneteasy_hosted", "pp_payneteasy_direct"])
    expect(registrationsVerifying(configModule, message("KEY-B"))).toEqual(["pp_payneteasy_other"])
    expect(registrationsVerifying(configModule, message("KEY-C"))).toEqual([])
  })
})

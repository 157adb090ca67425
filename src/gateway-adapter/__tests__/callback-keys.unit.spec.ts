import path from "node:path"
import { callbackControl } from "../../gateway"
import { registrationVerifying } from "../callback-keys"

/** This plugin's provider module, as medusa-config names it (an absolute path here; a package path in an app). */
const OURS = path.resolve(__dirname, "../../providers/payneteasy")

const opts = (controlKey: string) => ({ baseUrl: "http://gw.test/paynet", endpointId: "1", login: "m", controlKey, backendUrl: "http://b" })

describe("registrationVerifying (the callback route's in-memory check)", () => {
  // Two registrations of one merchant account share a key; a third has its own.
  const configModule = {
    modules: {
      payment: {
        resolve: "@medusajs/medusa/payment",
        options: {
          providers: [
            { resolve: OURS, id: "hosted", options: opts("KEY-A") },
            { resolve: OURS, id: "direct", options: opts("KEY-A") },
            { resolve: OURS, id: "other", options: opts("KEY-B") },
          ],
        },
      },
    },
  }
  const message = (key: string) => {
    const base = { status: "approved", orderid: "902133", client_orderid: "payses_01", merchant_order: "payses_01", type: "sale" }
    return { ...base, control: callbackControl(base.status, base.orderid, base.client_orderid, key) }
  }

  it("names the first registration, in medusa-config order, whose key verifies the control", () => {
    expect(registrationVerifying(configModule, message("KEY-A"))).toBe("pp_payneteasy_hosted")
    expect(registrationVerifying(configModule, message("KEY-B"))).toBe("pp_payneteasy_other")
  })

  it("answers undefined for a control under no registration's key, and for a changed field", () => {
    expect(registrationVerifying(configModule, message("KEY-C"))).toBeUndefined()
    expect(registrationVerifying(configModule, { ...message("KEY-A"), status: "declined" })).toBeUndefined()
  })
})

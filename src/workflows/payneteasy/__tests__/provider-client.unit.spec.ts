import { providerOptionsFor } from "../provider-client"
import { isDiscoverable } from "../reconcile"

const opts = (login: string) => ({ baseUrl: "http://gw.test/paynet", endpointId: "1", login, controlKey: "k", backendUrl: "http://b" })

describe("provider options for a read-only STATUS client", () => {
  const configModule = {
    modules: {
      payment: {
        resolve: "@medusajs/medusa/payment",
        options: {
          providers: [
            { resolve: "other", id: "stripe", options: { apiKey: "x" } },
            { resolve: "./p", id: "payneteasy", options: opts("main") },
            { resolve: "./p", id: "direct", options: opts("direct") },
          ],
        },
      },
    },
  }

  it("finds the registration whose id gives the payment's provider_id pp_payneteasy_<id>", () => {
    expect(providerOptionsFor(configModule, "pp_payneteasy_direct")?.login).toBe("direct")
    expect(providerOptionsFor(configModule, "pp_payneteasy_payneteasy")?.login).toBe("main")
  })

  it("finds nothing for other providers or unknown ids", () => {
    expect(providerOptionsFor(configModule, "pp_stripe_stripe")).toBeUndefined()
    expect(providerOptionsFor(configModule, "pp_payneteasy_auto")).toBeUndefined()
    expect(providerOptionsFor({}, "pp_payneteasy_payneteasy")).toBeUndefined()
  })

  it("accepts the array form of modules too", () => {
    const arr = { modules: [{ key: "payment", options: { providers: [{ id: "auto", options: opts("auto") }] } }] }
    expect(providerOptionsFor(arr, "pp_payneteasy_auto")?.login).toBe("auto")
  })
})

describe("which sessions reconciliation asks about", () => {
  it("any session with a gateway order, and direct sessions with only a client_orderid (lost card reply)", () => {
    expect(isDiscoverable({ flow: "hosted", orderId: "1", clientOrderId: "payses_1" })).toBe(true)
    expect(isDiscoverable({ flow: "direct", clientOrderId: "payses_1", attempt: 1 })).toBe(true)
    expect(isDiscoverable({ flow: "hosted", clientOrderId: "payses_1" })).toBe(false)
    expect(isDiscoverable({ flow: "direct" })).toBe(false)
    expect(isDiscoverable(undefined)).toBe(false)
  })
})

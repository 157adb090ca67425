import { providerOptionsFor } from "../status-client"
import { OURS, paymentConfig, providerOptions } from "./payment-config"

/** Another plugin's provider module registered under an id ours could have had. */
const IMPOSTOR = { services: [class { static identifier = "payneteasy" }] }

const opts = (login: string) => providerOptions({ login })

describe("provider options for a read-only STATUS client", () => {
  const configModule = paymentConfig([
    { resolve: "other", id: "stripe", options: { apiKey: "x" } },
    { resolve: OURS, id: "payneteasy", options: opts("main") },
    { resolve: OURS, id: "direct", options: opts("direct") },
    { resolve: IMPOSTOR, id: "impostor", options: opts("impostor") },
    { resolve: "./no/such/module", id: "missing", options: opts("missing") },
  ])

  it("finds the registration whose id gives the payment's provider_id pp_payneteasy_<id>", () => {
    expect(providerOptionsFor(configModule, "pp_payneteasy_direct")?.login).toBe("direct")
    expect(providerOptionsFor(configModule, "pp_payneteasy_payneteasy")?.login).toBe("main")
  })

  it("finds nothing for other providers or unknown ids", () => {
    expect(providerOptionsFor(configModule, "pp_stripe_stripe")).toBeUndefined()
    expect(providerOptionsFor(configModule, "pp_payneteasy_auto")).toBeUndefined()
    expect(providerOptionsFor({}, "pp_payneteasy_payneteasy")).toBeUndefined()
  })

  it("refuses a registration with the right id that is not this plugin's provider", () => {
    expect(providerOptionsFor(configModule, "pp_payneteasy_impostor")).toBeUndefined()
    expect(providerOptionsFor(configModule, "pp_payneteasy_missing")).toBeUndefined()
  })

  it("accepts the array form of modules too", () => {
    const arr = { modules: [{ key: "payment", options: { providers: [{ resolve: OURS, id: "auto", options: opts("auto") }] } }] }
    expect(providerOptionsFor(arr, "pp_payneteasy_auto")?.login).toBe("auto")
  })
})

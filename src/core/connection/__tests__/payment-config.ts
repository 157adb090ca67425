/**
 * A medusa-config module shape with payment providers, for the specs that read registrations out of it
 * (status-client, callback-keys).
 */
import path from "node:path"

/** This plugin's provider module, as medusa-config names it (an absolute path here; a package path in an app). */
export const OURS = path.resolve(__dirname, "../../../providers/payneteasy")

/** Provider options with every required field; `login` and `controlKey` are the ones the specs vary. */
export const providerOptions = (over: { login?: string; controlKey?: string }) => ({
  baseUrl: "http://gw.test/paynet", endpointId: "1", login: "m", controlKey: "k", backendUrl: "http://b", ...over,
})

/** `configModule` with these payment-module providers. */
export const paymentConfig = (providers: Array<{ resolve: unknown; id: string; options: Record<string, unknown> }>) => ({
  modules: { payment: { resolve: "@medusajs/medusa/payment", options: { providers } } },
})

/**
 * The provider options the test app registers, built from env the harness sets in beforeAll:
 * `PAYNETEASY_SANDBOX_URL` (useSandbox) and `PAYNETEASY_TEST_BACKEND_URL` (useBackendPort).
 * Three registrations of the same provider, so specs can exercise each flow/capture mode:
 *   payneteasy → pp_payneteasy_payneteasy (hosted page, manual capture = preauth)
 *   direct     → pp_payneteasy_direct     (direct card API, manual capture)
 *   auto       → pp_payneteasy_auto       (hosted page, automatic capture = sale)
 */
import { DEFAULT_SANDBOX_MERCHANT } from "../../src/sandbox"
import { BACKEND_URL_ENV } from "./backend-url"

export const SANDBOX_URL_ENV = "PAYNETEASY_SANDBOX_URL"
/**
 * The client's header timeout (ms) for every registration, when a spec sets it before the app boots (slow-gateway.spec.ts:
 * a gateway that processes longer than the client waits); default 10000.
 */
export const HEADERS_TIMEOUT_ENV = "PNE_TEST_HEADERS_TIMEOUT_MS"
/** The provider option processingWindowMs for every registration, when a spec sets it before the app boots (fault-trials). */
export const PROCESSING_WINDOW_ENV = "PNE_TEST_PROCESSING_WINDOW_MS"
/** PEM of the RSA private key the payneteasy registration signs v4 requests with (set by specs that need it). */
export const PRIVATE_KEY_ENV = "PAYNETEASY_TEST_PRIVATE_KEY"

/** Used only when a spec boots the app without useSandbox(): the provider still validates, nothing answers there. */
const UNSET_SANDBOX_URL = "http://127.0.0.1:9/paynet-sandbox-not-started"

export const PROVIDER_IDS = {
  hosted: "pp_payneteasy_payneteasy",
  direct: "pp_payneteasy_direct",
  auto: "pp_payneteasy_auto",
} as const

export type TestProviderKey = "payneteasy" | "direct" | "auto"

export function testProviderOptions(key: TestProviderKey) {
  const base = {
    baseUrl: process.env[SANDBOX_URL_ENV] || UNSET_SANDBOX_URL,
    endpointId: DEFAULT_SANDBOX_MERCHANT.endpointIds[0],
    login: DEFAULT_SANDBOX_MERCHANT.login,
    controlKey: DEFAULT_SANDBOX_MERCHANT.controlKey,
    backendUrl: process.env[BACKEND_URL_ENV] || `http://127.0.0.1:${process.env.PORT || 9000}`,
    timeouts: { connectMs: 2000, headersMs: Number(process.env[HEADERS_TIMEOUT_ENV] || 10000), bodyMs: 10000 },
    ...(process.env[PROCESSING_WINDOW_ENV] ? { processingWindowMs: Number(process.env[PROCESSING_WINDOW_ENV]) } : {}),
  }
  switch (key) {
    case "payneteasy":
      // Payouts go through this registration (payouts spec): EUR and JPY allowed, with per-payout limits; the RSA key
      // for the v4 payout-check / payout-pay only when a spec registered one (PAYNETEASY_TEST_PRIVATE_KEY).
      return {
        ...base, flow: "hosted" as const, capture: "manual" as const,
        payouts: { currencies: ["EUR", "JPY"], maxAmount: { EUR: "1000.00", JPY: "100000" } },
        ...(process.env[PRIVATE_KEY_ENV] ? { privateKey: process.env[PRIVATE_KEY_ENV] } : {}),
      }
    case "direct":
      return { ...base, flow: "direct" as const, capture: "manual" as const }
    case "auto":
      return { ...base, flow: "hosted" as const, capture: "automatic" as const }
  }
}

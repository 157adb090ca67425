/**
 * One import for integration specs:
 *   import { TEST_APP_DIR, useSandbox, seedStore, checkoutToPaymentSession, PROVIDER_IDS } from "../helpers"
 * See sandbox.ts (harness hooks), store.ts (seeding + storefront calls), backend-url.ts (why PORT is chosen up front).
 */
export { REPO_ROOT, TEST_APP_DIR, PROVIDER_SOURCE } from "./paths"
export { backendUrl, useBackendPort, BACKEND_URL_ENV } from "./backend-url"
export { useSandbox, type SandboxOptions } from "./sandbox"
export { PROVIDER_IDS, SANDBOX_URL_ENV, testProviderOptions, type TestProviderKey } from "./provider-options"
export * from "./store"
export { getFreePort } from "./ports"
export * from "./inspect"

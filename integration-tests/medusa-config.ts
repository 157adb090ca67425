/**
 * Medusa config of the integration-test app (used by medusaIntegrationTestRunner with `cwd: TEST_APP_DIR`).
 * - The payment module gets this repo's provider FROM SOURCE (absolute path to src/providers/payneteasy) three times:
 *   ids payneteasy / direct / auto (see helpers/provider-options.ts), all against the local sandbox.
 * - The plugin itself (src/api routes, src/modules, subscribers, jobs, workflows, links) is loaded from source through
 *   a symlinked plugin package (helpers/source-plugin.ts).
 * - databaseUrl is replaced by the runner with its per-suite database; admin is disabled by the runner.
 * - PNE_TEST_REDIS_URL (the bench's two processes, bench/app/server.ts): Medusa's Redis modules and projectConfig.redisUrl,
 *   queue names and lock keys under PNE_TEST_REDIS_NAMESPACE; the process's role comes from MEDUSA_WORKER_MODE.
 * - PNE_TEST_CALLBACK_DELAY_MS: the plugin's callbackProcessingDelayMs (below).
 * Evaluated once per spec file, inside the runner's beforeAll — after useSandbox()/useBackendPort() set the env.
 */
import { createSecretKey } from "node:crypto"
import { defineConfig, Modules } from "@medusajs/framework/utils"
import { PROVIDER_SOURCE } from "./helpers/paths"
import { testProviderOptions } from "./helpers/provider-options"
import { sourcePluginDir } from "./helpers/source-plugin"
import { redisModules } from "./helpers/redis-modules"

const secret = "payneteasy-integration-test-secret"
// The JWT secret as a KeyObject, which jsonwebtoken uses as it is: given a string, every sign and verify first tries it
// as a PEM public key (createPublicKey throws) and then wraps it, 10 % of the CPU of an admin request (measured on the
// fuzzing spec's 31,000 requests, issue 38). The same secret and algorithm (HS256); Medusa passes it through unchanged.
const jwtSecret = createSecretKey(Buffer.from(secret)) as unknown as string
const redisUrl = process.env.PNE_TEST_REDIS_URL || undefined
// Callback processing waits the plugin's callbackProcessingDelayMs after the route records a callback (default
// 1000 ms); 50 ms keeps tests quick, as webhook_delay below. PNE_TEST_CALLBACK_DELAY_MS sets another: a number of ms,
// or "default" for the plugin's own (the bench).
const delayEnv = process.env.PNE_TEST_CALLBACK_DELAY_MS
const callbackDelay = delayEnv === "default" ? {} : { callbackProcessingDelayMs: delayEnv ? Number(delayEnv) : 50 }

export default defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    redisUrl,
    http: {
      storeCors: "*",
      adminCors: "*",
      authCors: "*",
      jwtSecret,
      cookieSecret: secret,
    },
  },
  admin: { disable: true },
  // storefrontReturnUrl: where the plugin's return route (/payneteasy/return) sends the shopper (303).
  plugins: [{ resolve: sourcePluginDir(), options: { storefrontReturnUrl: "http://storefront.test/checkout/payneteasy", ...callbackDelay } }],
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      key: Modules.PAYMENT,
      options: {
        // The payment module processes webhook events after this delay (default 5000 ms); keep tests quick.
        webhook_delay: 50,
        webhook_retries: 3,
        providers: [
          { resolve: PROVIDER_SOURCE, id: "payneteasy", options: testProviderOptions("payneteasy") },
          { resolve: PROVIDER_SOURCE, id: "direct", options: testProviderOptions("direct") },
          { resolve: PROVIDER_SOURCE, id: "auto", options: testProviderOptions("auto") },
          // Only when a spec sets PAYNETEASY_TEST_PRIVATE_KEY (saved-cards-v4.spec.ts): RSA-SHA256 card references.
          ...(process.env.PAYNETEASY_TEST_PRIVATE_KEY
            ? [{ resolve: PROVIDER_SOURCE, id: "v4", options: { ...testProviderOptions("auto"), privateKey: process.env.PAYNETEASY_TEST_PRIVATE_KEY } }]
            : []),
        ],
      },
    },
    ...(redisUrl ? redisModules(redisUrl, process.env.PNE_TEST_REDIS_NAMESPACE || "medusa", { eventWorkers: 8 }) : []),
  ],
})

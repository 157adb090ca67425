/**
 * The demo, start to finish: Postgres → sandbox gateway → Medusa app with this plugin (from source) → seed →
 * scripted checkout → admin capture and refund → summary → the addresses to play with. `--once` stops after the
 * flow with a last line `demo: ok …`; otherwise it keeps serving until Ctrl-C. Any failure names its step, says why,
 * and exits non-zero.
 */
import path from "node:path"
import type { MedusaContainer } from "@medusajs/framework/types"
import { DEFAULT_SANDBOX_MERCHANT, startSandbox, type Sandbox } from "../../src/sandbox"
import { REPO_ROOT } from "../../integration-tests/helpers/paths"
import { createAdminUser, seedStore } from "../../integration-tests/helpers/store"
import { captureAndRefund, adminSdk, type MedusaPaymentView } from "./admin"
import { ADMIN_PATH, bootApp, generateApp, migrate, STOREFRONT_RETURN_PATH, type RunningApp } from "./app"
import { PROVIDER_ID, runCheckout } from "./checkout"
import { setShopConfig, SHOP_PATH } from "./shop"
import { fromMinorUnits, toMinorUnits } from "../../src/gateway/money"
import { fetchApi } from "./http-api"
import { payoutKeys, runPayouts } from "./payouts"
import { demoEnv } from "./env"
import { preferredPort } from "./ports"
import { seedSubscriptionProduct, SUBSCRIPTION_PRICE } from "./subscription"
import { prepareDatabase, type DemoDatabase } from "./postgres"
import { DemoCheckError, DemoStepError, describeError, say, step } from "./steps"
import { assertAgreement, formatAmount, printSummary } from "./summary"

/** The shop's card-form registration (see moreProviders below). */
const DIRECT_PROVIDER_ID = "pp_payneteasy_direct"
const ADMIN = { email: "admin@payneteasy.demo", password: "payneteasy-demo" }
const QUANTITY = 2
const UNIT_PRICE = "24.95"
const SHIPPING_PRICE = "4.95"
// Admin amounts go to Medusa's admin API as numbers (its schema); both are exact in binary floating point.
const CAPTURE = 30
const REFUND = 12.5

interface Running {
  db?: DemoDatabase
  sandbox?: Sandbox
  app?: RunningApp
}

export async function main({ once }: { once: boolean }): Promise<void> {
  const running: Running = {}
  const startedAt = Date.now()
  let stopping = false
  const stop = async (code: number) => {
    if (stopping) return
    stopping = true
    say("\nStopping (Medusa, sandbox, Postgres if embedded)…")
    await shutdown(running)
    process.exit(code)
  }
  process.on("SIGINT", () => void stop(0))
  process.on("SIGTERM", () => void stop(0))

  try {
    say("PaynetEasy for Medusa — demo: a whole store payment flow against the local gateway sandbox")
    say()
    const result = await demo(running)
    const seconds = ((Date.now() - startedAt) / 1000).toFixed(0)
    say()
    say(`backend: ${result.backendUrl}`)
    // The admin line leads to the demo order's page (its PaynetEasy panel); the PaynetEasy page is in the sidebar.
    say(`admin: ${result.backendUrl}${ADMIN_PATH}/orders/${result.orderId} ${ADMIN.email} ${ADMIN.password}`)
    say(`PaynetEasy page: ${result.backendUrl}${ADMIN_PATH}/payneteasy`)
    say(`shop (hosted page, card form with 3-D Secure, saved cards; built with the storefront kit): ${result.backendUrl}${SHOP_PATH}`)
    say(`publishable key: ${result.publishableKey}`)
    say(`sandbox: ${result.sandboxUrl}`)
    say(`callback: ${result.callbackUrl}`)
    say(`payout form: ${result.payouts.form.form_url}`)
    const m = result.medusa
    const fmt = (a: string) => `${formatAmount(a, m.currency)} ${m.currency}`
    const okLine =
      `demo: ok — order #${m.displayId ?? "?"} for ${fmt(result.orderTotal)} paid on the hosted page, ` +
      `${m.captured.map(fmt).join(" + ")} captured, ${m.refunded.map(fmt).join(" + ")} refunded; ` +
      `Medusa and the gateway agree; payouts: single + two-step approved, hosted form issued (${seconds}s)`
    if (once) {
      await shutdown(running)
      say(okLine)
      process.exit(0)
    }
    say(okLine)
    say()
    say(`Serving until Ctrl-C. The admin dashboard compiles on first load (Vite dev server); log in with the line above.`)
    say(`Sandbox steering/inspection API: ${running.sandbox?.origin}/__sandbox/ — Medusa log level: ${process.env.LOG_LEVEL} (--verbose for more).`)
  } catch (error) {
    const failure =
      error instanceof DemoStepError ? error : new DemoStepError("demo", describeError(error), error instanceof Error ? error.stack : undefined)
    say()
    if (failure.detail) say(failure.detail.split("\n").map((l) => `    ${l}`).join("\n"))
    await shutdown(running)
    say(`demo: FAILED at step "${failure.step}": ${failure.reason}`)
    process.exit(1)
  }
}

async function demo(running: Running) {
  // The backend's port first: the demo's database is named after it (scripts/demo/env.ts), so a second demo on another
  // port leaves this one's database alone.
  const port = Number(process.env.PORT) || (await preferredPort(9000))
  const backendUrl = `http://localhost:${port}`
  const env = demoEnv(process.env, port, STOREFRONT_RETURN_PATH)
  const db = (running.db = await step(`Postgres: find a server, recreate the demo database ${env.databaseName}`, () => prepareDatabase(env.databaseName), (d) => d.display))

  const keys = await step(
    "RSA key pair for v4 payouts: generate, private key to .demo/keys (provider privateKey)",
    async () => payoutKeys(path.join(REPO_ROOT, ".demo", "keys")),
    (k) => path.relative(REPO_ROOT, k.privateKeyPath)
  )
  const sandbox = (running.sandbox = await step(
    "sandbox gateway: start, with the demo's RSA public key registered",
    async () =>
      startSandbox({
        port: await preferredPort(4010, "127.0.0.1"),
        host: "127.0.0.1",
        merchants: [{
          ...DEFAULT_SANDBOX_MERCHANT,
          endpointIds: [...DEFAULT_SANDBOX_MERCHANT.endpointIds],
          endpointGroupIds: [...DEFAULT_SANDBOX_MERCHANT.endpointGroupIds],
          publicKeyPem: keys.publicKeyPem,
        }],
      }),
    (s) => s.url
  ))

  const { storefrontReturnUrl, storeCors, authCors } = env
  const appDir = await step(
    "Medusa app: generate .demo/app with the plugin and provider from source",
    async () =>
      generateApp({
        backendUrl,
        databaseUrl: db.url,
        storeCors,
        authCors,
        pluginOptions: { storefrontReturnUrl },
        providerOptions: {
          baseUrl: sandbox.url,
          endpointId: DEFAULT_SANDBOX_MERCHANT.endpointIds[0],
          login: DEFAULT_SANDBOX_MERCHANT.login,
          controlKey: DEFAULT_SANDBOX_MERCHANT.controlKey,
          capture: "manual",
          flow: "hosted",
          backendUrl,
          storefrontReturnUrl,
          privateKey: keys.privateKeyPath,
          payouts: { currencies: ["EUR"], maxAmount: { EUR: "500.00" } },
        },
        // The shop's card form (direct flow, 3-D Secure on the bank's page, saved cards): a second registration.
        moreProviders: {
          direct: {
            baseUrl: sandbox.url,
            endpointId: DEFAULT_SANDBOX_MERCHANT.endpointIds[0],
            login: DEFAULT_SANDBOX_MERCHANT.login,
            controlKey: DEFAULT_SANDBOX_MERCHANT.controlKey,
            capture: "automatic",
            flow: "direct",
            backendUrl,
            storefrontReturnUrl,
          },
        },
      }),
    (dir) => path.relative(REPO_ROOT, path.join(dir, "medusa-config.ts"))
  )

  await step("Medusa: run database migrations (medusa db:migrate)", () => migrate(appDir))
  const app = (running.app = await step("Medusa: boot the server", () => bootApp(appDir, port), (a) => a.url))
  const container: MedusaContainer = app.container

  const store = await step(
    "seed: region (EUR, Germany, PaynetEasy enabled), product, shipping, sales channel, publishable key",
    () =>
      seedStore(container, {
        currency: "eur",
        countries: ["de"],
        paymentProviders: [PROVIDER_ID, DIRECT_PROVIDER_ID],
        unitPrice: UNIT_PRICE,
        shippingPrice: SHIPPING_PRICE,
        tag: "demo",
      }),
    (s) => `region ${s.regionId}, variant ${s.variantId} at ${s.unitPrice} EUR, key ${s.publishableKey}`
  )
  await step(
    `seed: one subscription product (metadata.payneteasy_recurring monthly, ${SUBSCRIPTION_PRICE} EUR; the provider has the RSA key)`,
    () => seedSubscriptionProduct(container, store),
    (p) => `product ${p.productId}, variant ${p.variantId}`
  )
  await step(
    "seed: admin user",
    () => createAdminUser(fetchApi(app.url), container, ADMIN.email, ADMIN.password),
    (a) => `${a.email} (${a.userId})`
  )

  setShopConfig({
    publishableKey: store.publishableKey,
    regionId: store.regionId,
    salesChannelId: store.salesChannelId,
    variantId: store.variantId,
    shippingOptionId: store.shippingOptionId,
    currency: store.currency,
    countryCode: store.countryCode,
    providerId: PROVIDER_ID,
    directProviderId: DIRECT_PROVIDER_ID,
    // one item plus shipping, by integer arithmetic in minor units
    price: fromMinorUnits(toMinorUnits(UNIT_PRICE, "EUR") + toMinorUnits(SHIPPING_PRICE, "EUR"), "EUR"),
    adminUrl: `${app.url}${ADMIN_PATH}`,
  })

  const checkout = await runCheckout({ backendUrl: app.url, store, quantity: QUANTITY, sandbox, container })

  const sdk = await step("admin: log in with @medusajs/js-sdk", () => adminSdk(app.url, ADMIN), () => ADMIN.email)
  const medusa: MedusaPaymentView = await captureAndRefund(sdk, checkout.orderId, { capture: CAPTURE, refund: REFUND })

  const payouts = await runPayouts(sdk)

  const gateway = await step("summary: compare Medusa's records with the gateway's", async () => {
    const [order] = sandbox.control.byClientOrderId(checkout.sessionId)
    if (!order) throw new DemoCheckError(`the sandbox has no order for ${checkout.sessionId}`)
    assertAgreement(medusa, order, checkout.orderTotal)
    return order
  })
  say()
  printSummary(medusa, gateway, checkout.orderTotal)

  return {
    backendUrl: app.url,
    publishableKey: store.publishableKey,
    sandboxUrl: sandbox.url,
    callbackUrl: gateway.urls.serverCallback ?? `${app.url}/payneteasy/callback`,
    medusa,
    orderTotal: checkout.orderTotal,
    orderId: checkout.orderId,
    payouts,
  }
}

/** Stops what was started, newest first; each part is bounded so Ctrl-C always ends the process. */
async function shutdown(running: Running): Promise<void> {
  const bounded = async (what: string, fn: () => Promise<void>) => {
    let timer: NodeJS.Timeout | undefined
    try {
      await Promise.race([
        fn(),
        new Promise<void>((_, reject) => {
          timer = setTimeout(() => reject(new Error("timed out")), 10_000)
          timer.unref()
        }),
      ])
    } catch (error) {
      say(`(while stopping ${what}: ${describeError(error)})`)
    } finally {
      if (timer) clearTimeout(timer)
    }
  }
  const { app, sandbox, db } = running
  running.app = running.sandbox = running.db = undefined
  if (app) await bounded("Medusa", () => app.close())
  if (sandbox) await bounded("the sandbox", () => sandbox.close())
  if (db) await bounded("Postgres", () => db.stop())
}

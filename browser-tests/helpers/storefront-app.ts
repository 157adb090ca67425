/**
 * The storefront browser-test harness: the demo shop (scripts/demo/shop.ts — built only from the storefront kit) on
 * its own origin, a real Medusa app loading the BUILT plugin with two PaynetEasy registrations (hosted page and direct
 * card, both sending the shopper back to the shop's return page), its own Postgres database, the gateway sandbox over
 * HTTP, and one Chromium. Every test gets a fresh browser context that records every request the pages make.
 * Shares the plugin build, app directory and database template machinery with the admin harness (built-app.ts); the
 * dashboard is disabled (nothing here needs it).
 */
import type { ChildProcess } from "node:child_process"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { getFreePort } from "../../integration-tests/helpers/ports"
import type { StoreFixture } from "../../integration-tests/helpers/store"
import {
  childEnv, cloneTemplate, ensurePluginBuilt, ensureTemplate, httpApi, prepareAppDir, sandboxRegistrations, startMedusa, stopMedusa,
} from "../../integration-tests/helpers/built-app"
import { SHOP_PATH, startShopServer, STOREFRONT_RETURN_PATH, type ShopConfig } from "../../scripts/demo/shop"
import { launchChromium } from "./chromium"
import { clonePrefix, releaseClone } from "./run-databases"

export const HOSTED = "pp_payneteasy_payneteasy"
export const DIRECT = "pp_payneteasy_direct"
/** What the hosted registration tells the gateway's page the shopper is paying for (provider option orderDescription). */
export const SHOP_ORDER_DESCRIPTION = "Order at the PaynetEasy demo shop"

/** One request a page made: enough to search it for card data afterwards. */
export interface RecordedRequest {
  method: string
  url: string
  body: string
  headers: Record<string, string>
}

export interface StorefrontApp {
  backendUrl: string
  shopUrl: string
  sandbox: Sandbox
  store: StoreFixture
  browser: Browser
  context: BrowserContext
  page: Page
  /** Every request of this test's pages, in order. */
  requests: RecordedRequest[]
  pageErrors: string[]
  /** Admin HTTP API (bearer token). */
  admin: ReturnType<typeof httpApi>
  logs(): string
}

export function useStorefrontApp(): () => StorefrontApp {
  let child: ChildProcess | undefined
  let sandbox: Sandbox | undefined
  let browser: Browser | undefined
  let shop: Awaited<ReturnType<typeof startShopServer>> | undefined
  let database: { drop: () => Promise<void> } | undefined
  let base: Omit<StorefrontApp, "context" | "page" | "requests" | "pageErrors"> | undefined
  let context: BrowserContext | undefined
  let page: Page | undefined
  let requests: RecordedRequest[] = []
  let pageErrors: string[] = []

  beforeAll(async () => {
    const buildHash = await ensurePluginBuilt()
    prepareAppDir(buildHash)
    sandbox = await startSandbox({ processingMs: 50, callbackDelayMs: 20, port: 0, host: "127.0.0.1" })
    const port = await getFreePort()
    const backendUrl = `http://localhost:${port}`
    let shopConfig: ShopConfig | undefined
    shop = await startShopServer(await getFreePort(), () => shopConfig)
    const storefrontReturnUrl = `${shop.url}${STOREFRONT_RETURN_PATH}`
    const registrations = sandboxRegistrations(
      [
        { id: "payneteasy", options: { flow: "hosted", capture: "automatic", storefrontReturnUrl, orderDescription: SHOP_ORDER_DESCRIPTION } },
        { id: "direct", options: { flow: "direct", capture: "automatic", storefrontReturnUrl } },
      ],
      sandbox.url,
      backendUrl
    )
    const appEnv = childEnv({
      PNE_ADMIN_APP_PROVIDERS: JSON.stringify(registrations),
      PNE_APP_ADMIN_DISABLED: "true",
      PNE_APP_STORE_CORS: shop.url,
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    })
    const template = await ensureTemplate(appEnv, [HOSTED, DIRECT])
    const clone = await cloneTemplate(template.name, clonePrefix("shop"))
    database = clone
    const started = await startMedusa({ ...appEnv, DATABASE_URL: clone.url }, port)
    child = started.child
    const { store, admin } = template.fixture
    shopConfig = {
      backendUrl, publishableKey: store.publishableKey, regionId: store.regionId, salesChannelId: store.salesChannelId,
      variantId: store.variantId, shippingOptionId: store.shippingOptionId, currency: store.currency, countryCode: store.countryCode,
      providerId: HOSTED, directProviderId: DIRECT, price: String(store.unitPrice),
    }
    const anonymous = httpApi(backendUrl)
    const token = (await anonymous.post<{ token: string }>("/auth/user/emailpass", { email: admin.email, password: admin.password })).data.token
    browser = await launchChromium()
    base = {
      backendUrl, shopUrl: `${shop.url}${SHOP_PATH}`, sandbox, store, browser,
      admin: httpApi(backendUrl, () => ({ authorization: `Bearer ${token}` })), logs: started.output,
    }
  }, 10 * 60_000)

  afterAll(async () => {
    await browser?.close().catch(() => undefined)
    await stopMedusa(child)
    await shop?.close()
    await sandbox?.close()
    await releaseClone(database)
  }, 60_000)

  beforeEach(async () => {
    if (!browser) throw new Error("storefront harness: set-up failed (see the beforeAll error)")
    requests = []
    pageErrors = []
    context = await browser.newContext()
    context.setDefaultTimeout(30_000)
    context.on("request", (r) => requests.push({ method: r.method(), url: r.url(), body: r.postData() ?? "", headers: r.headers() }))
    context.on("page", (p) => p.on("pageerror", (e) => pageErrors.push(e.message)))
    page = await context.newPage()
  })

  afterEach(async () => {
    await context?.close()
    if (pageErrors.length > 0) throw new Error(`script errors on the pages: ${pageErrors.join(" | ")}`)
  })

  return () => {
    if (!base || !context || !page) throw new Error("storefront harness used outside a test (or its beforeAll failed)")
    return { ...base, context, page, requests, pageErrors }
  }
}

/**
 * The admin browser-test harness: a real Medusa app that loads the BUILT plugin (server code and admin extensions,
 * as a store installs it), its own Postgres database, the gateway sandbox over HTTP, an admin user, and one Chromium
 * page logged in at /app. Specs for dashboard features (order panel, PaynetEasy page, saved cards, payouts,
 * recurring…) call `useAdminApp()` once at the top level; everything is shared by the tests of that spec file.
 *
 *   const app = useAdminApp()                       // or useAdminApp({ providers: [...], sandbox: {...} })
 *   it("…", async () => {
 *     const { page, api, sandbox } = app()
 *     const { orderId } = await app().payHostedOrder()
 *     await app().gotoAdmin(`/orders/${orderId}`)
 *     await app().screenshot("order-panel")
 *   })
 *
 * How it is made (and why it is fast enough to run per spec file):
 * 1–3. the plugin build, the app directory that installs it and the cloned database template come from
 *    integration-tests/helpers/built-app.ts (shared with the two-instance reliability spec);
 * 4. the dashboard with the plugin's built admin extensions, built once by Vite in production mode (admin-bundle.ts)
 *    and reused by every spec file and run until the plugin build changes;
 *    `medusa start` with NODE_ENV=production (child process) serves it at /app as static files, as a store runs it;
 * 5. Chromium (launchChromium) logs in through the dashboard's own login form.
 * Screenshots go to browser-tests/screenshots/ (git-ignored) or BROWSER_TEST_SCREENSHOTS; with PNE_SCREENSHOTS=<dir>
 * (`npm run screenshots`: docs/images) the specs also save the documentation's screenshots there (docScreenshot).
 */
import type { ChildProcess } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import type { Browser, BrowserContext, Locator, Page } from "playwright-core"
import { DEFAULT_SANDBOX_MERCHANT, payHostedPage, startSandbox, type Sandbox, type SandboxOptions } from "../../src/sandbox"
import crypto from "node:crypto"
import { REPO_ROOT } from "../../integration-tests/helpers/paths"
import { getFreePort } from "../../integration-tests/helpers/ports"
import { checkoutToPaymentSession, completeCartResponse, type Api, type StoreFixture } from "../../integration-tests/helpers/store"
import {
  ADMIN_PATH, childEnv, cloneTemplate, ensurePluginBuilt, ensureTemplate, httpApi, prepareAppDir, sandboxRegistrations, startMedusa,
  stopMedusa, type AdminUser, type AppProvider,
} from "../../integration-tests/helpers/built-app"
import { ensureAdminBundle } from "./admin-bundle"
import { launchChromium } from "./chromium"
import { clonePrefix, releaseClone } from "./run-databases"

export { ADMIN_PATH, httpApi }
export type { AdminUser }
export const SCREENSHOT_DIR = process.env.BROWSER_TEST_SCREENSHOTS || path.join(REPO_ROOT, "browser-tests", "screenshots")
/** Where the documentation's screenshots go (relative to the repository), or undefined: not taken. */
export const DOC_SCREENSHOT_DIR = process.env.PNE_SCREENSHOTS ? path.resolve(REPO_ROOT, process.env.PNE_SCREENSHOTS) : undefined
export const TEST_CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Test Shopper" }

export type AdminAppProvider = AppProvider

/** hosted + manual capture (pp_payneteasy_payneteasy) and hosted + automatic capture (pp_payneteasy_auto). */
/**
 * A generated RSA key pair for v4 (RSA-SHA256) operations: the private half (PEM) for a provider registration's
 * `privateKey`, and the sandbox merchants whose default merchant holds the public half.
 */
export function rsaKeyPair(): { privateKeyPem: string; merchants: NonNullable<SandboxOptions["merchants"]> } {
  const keys = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 })
  return {
    privateKeyPem: keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    merchants: [{
      ...DEFAULT_SANDBOX_MERCHANT,
      endpointIds: [...DEFAULT_SANDBOX_MERCHANT.endpointIds],
      endpointGroupIds: [...DEFAULT_SANDBOX_MERCHANT.endpointGroupIds],
      publicKeyPem: keys.publicKey.export({ type: "spki", format: "pem" }).toString(),
    }],
  }
}

export const DEFAULT_PROVIDERS: AdminAppProvider[] = [
  { id: "payneteasy", options: { flow: "hosted", capture: "manual" } },
  { id: "auto", options: { flow: "hosted", capture: "automatic" } },
]

export interface AdminAppOptions {
  providers?: AdminAppProvider[]
  sandbox?: Omit<NonNullable<Parameters<typeof startSandbox>[0]>, "port" | "host">
  /** Milliseconds for the whole set-up (build, template, boot, first dashboard load). Default 8 minutes. */
  setupTimeoutMs?: number
}

export interface AdminApp {
  /** Backend origin, e.g. http://localhost:54321 */
  url: string
  /** The dashboard, `${url}/app` */
  adminUrl: string
  sandbox: Sandbox
  store: StoreFixture
  admin: AdminUser
  providerIds: string[]
  browser: Browser
  context: BrowserContext
  /** Logged in at /app. Shared by the tests of a spec file. */
  page: Page
  /** Admin HTTP API with the admin's bearer token (axios-like: throws on non-2xx with `.response`). */
  api: Api
  /** The same without authentication (store routes: pass storeHeaders(store)). */
  anonymous: Api
  /** Uncaught exceptions of dashboard pages since the start (a test may assert it is empty). */
  pageErrors: string[]
  gotoAdmin(route: string): Promise<void>
  /** Saves `<name>.png` in SCREENSHOT_DIR: the page, or only `target` (the dashboard scrolls inside its own pane,
   *  so an element shot is how a long widget is captured whole). Returns the file. */
  screenshot(name: string, target?: Locator): Promise<string>
  /** With PNE_SCREENSHOTS set: saves `target` (cropped to it, in English) as `<PNE_SCREENSHOTS>/<name>.png`, the
   *  documentation's picture; otherwise does nothing. Returns the file or null. */
  docScreenshot(name: string, target: Locator): Promise<string | null>
  /** A storefront checkout paid on the sandbox's hosted page (over HTTP); resolves once Medusa has the order. */
  payHostedOrder(providerId?: string): Promise<{ orderId: string; cartId: string; sessionId: string; gatewayOrderId: string }>
  /** The app's output so far (for failure messages). */
  logs(): string
}

/** Logs in through the dashboard's own form. */
async function login(page: Page, adminUrl: string, admin: AdminUser): Promise<void> {
  await page.goto(`${adminUrl}/login`, { waitUntil: "domcontentloaded", timeout: 240_000 })
  const email = page.locator('input[name="email"]')
  await email.waitFor({ state: "visible", timeout: 240_000 })
  await email.fill(admin.email)
  await page.locator('input[name="password"]').fill(admin.password)
  await page.locator('button[type="submit"]').click()
  await page.waitForURL((u) => !u.pathname.endsWith("/login"), { timeout: 120_000 })
}

export function useAdminApp(options: AdminAppOptions = {}): () => AdminApp {
  const providers = options.providers ?? DEFAULT_PROVIDERS
  let app: AdminApp | undefined
  let child: ChildProcess | undefined
  let sandbox: Sandbox | undefined
  let browser: Browser | undefined
  let database: { drop: () => Promise<void> } | undefined
  const timings: Record<string, number> = {}

  beforeAll(async () => {
    const t0 = Date.now()
    const mark = (what: string, since: number) => (timings[what] = Date.now() - since)
    let t = Date.now()
    const buildHash = await ensurePluginBuilt()
    mark("build", t)
    prepareAppDir(buildHash)
    t = Date.now()
    await ensureAdminBundle(buildHash)
    mark("admin bundle", t)
    sandbox = await startSandbox({ processingMs: 50, callbackDelayMs: 20, ...options.sandbox, port: 0, host: "127.0.0.1" })
    const port = await getFreePort()
    const url = `http://localhost:${port}`
    const registrations = sandboxRegistrations(providers, sandbox.url, url)
    const providerIds = providers.map((p) => `pp_payneteasy_${p.id}`)
    const appEnv = childEnv({
      PNE_ADMIN_APP_PROVIDERS: JSON.stringify(registrations),
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    })
    t = Date.now()
    const template = await ensureTemplate(appEnv, providerIds)
    mark("template", t)
    const clone = await cloneTemplate(template.name, clonePrefix("admin"))
    database = clone
    t = Date.now()
    const started = await startMedusa({ ...appEnv, DATABASE_URL: clone.url, NODE_ENV: "production" }, port)
    child = started.child
    mark("boot", t)
    t = Date.now()
    browser = await launchChromium()
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } })
    context.setDefaultTimeout(30_000)
    const pageErrors: string[] = []
    const page = await context.newPage()
    page.on("pageerror", (e) => pageErrors.push(e.message))
    const adminUrl = `${url}${ADMIN_PATH}`
    const { admin, store } = template.fixture
    await login(page, adminUrl, admin)
    mark("first dashboard load + login", t)
    const anonymous = httpApi(url)
    const token = (await anonymous.post<{ token: string }>("/auth/user/emailpass", { email: admin.email, password: admin.password })).data.token
    const api = httpApi(url, () => ({ authorization: `Bearer ${token}` }))
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
    app = {
      url,
      adminUrl,
      sandbox,
      store,
      admin,
      providerIds,
      browser,
      context,
      page,
      api,
      anonymous,
      pageErrors,
      gotoAdmin: async (route) => {
        await page.goto(`${adminUrl}${route.startsWith("/") ? route : `/${route}`}`, { waitUntil: "domcontentloaded" })
      },
      screenshot: async (name, target) => {
        const file = path.join(SCREENSHOT_DIR, `${name}.png`)
        if (target) await target.screenshot({ path: file })
        else await page.screenshot({ path: file })
        return file
      },
      docScreenshot: async (name, target) => {
        if (!DOC_SCREENSHOT_DIR) return null
        fs.mkdirSync(DOC_SCREENSHOT_DIR, { recursive: true })
        const file = path.join(DOC_SCREENSHOT_DIR, `${name}.png`)
        await target.scrollIntoViewIfNeeded()
        await target.screenshot({ path: file, animations: "disabled", caret: "hide" })
        return file
      },
      payHostedOrder: async (providerId = providerIds[providerIds.length - 1]) => {
        const { cart, session } = await checkoutToPaymentSession(anonymous, store, providerId)
        await payHostedPage(session.data.redirectUrl, TEST_CARD)
        const deadline = Date.now() + 30_000
        for (;;) {
          const res = await completeCartResponse(anonymous, store, cart.id)
          if (res.status === 200 && res.data?.type === "order") {
            const gateway = sandbox!.control.byClientOrderId(session.id)
            return { orderId: res.data.order.id, cartId: cart.id, sessionId: session.id, gatewayOrderId: String(gateway[0]?.orderid) }
          }
          if (Date.now() > deadline) throw new Error(`no order for cart ${cart.id}: ${JSON.stringify(res.data).slice(0, 300)}`)
          await new Promise((r) => setTimeout(r, 300))
        }
      },
      logs: started.output,
    }
    mark("total set-up", t0)
    // eslint-disable-next-line no-console
    console.log(`admin-app set-up (ms): ${JSON.stringify(timings)}`)
  }, options.setupTimeoutMs ?? 8 * 60_000)

  afterAll(async () => {
    const t0 = Date.now()
    await browser?.close().catch(() => undefined)
    const t1 = Date.now()
    await stopMedusa(child)
    const t2 = Date.now()
    await sandbox?.close()
    const t3 = Date.now()
    await releaseClone(database)
    // eslint-disable-next-line no-console
    console.log(`admin-app tear-down (ms): ${JSON.stringify({ browser: t1 - t0, app: t2 - t1, sandbox: t3 - t2, database: Date.now() - t3 })}`)
  }, 60_000)

  return () => {
    if (!app) throw new Error("admin app used outside a test (or its beforeAll failed)")
    return app
  }
}

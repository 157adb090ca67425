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
 * 1. `medusa plugin:build` in the repository, skipped when a stamp of src/ and package.json says the build is current;
 * 2. a persistent app directory under the OS temp dir (per repository checkout): package.json, tsconfig.json, a
 *    medusa-config.js that reads everything from the environment, `node_modules/*` symlinked to the repository's,
 *    and the plugin INSTALLED as `node_modules/medusa-payment-payneteasy` (package.json + a copy of .medusa/server),
 *    so Medusa and Vite see it exactly like a published package (exports "./admin", "./providers/*");
 * 3. a database template, migrated (`medusa db:migrate`) and seeded (`medusa exec admin-app-seed.ts`: the
 *    integration tests' store + an admin user) once per Medusa version × plugin migrations × providers × seed code;
 *    each spec clones it (`CREATE DATABASE … TEMPLATE …`) and drops its clone afterwards;
 * 4. `medusa start` with NODE_ENV=development (child process): the dashboard with the plugin's built admin extensions
 *    is served by Vite at /app, its pre-bundle cache kept per plugin build, so only the first run pays for it;
 * 5. Chromium (launchChromium) logs in through the dashboard's own login form.
 * Postgres: DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD or DATABASE_URL, else localhost:5432 user postgres.
 * Screenshots go to browser-tests/screenshots/ (git-ignored) or BROWSER_TEST_SCREENSHOTS.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process"
import crypto from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { promisify } from "node:util"
import type { Browser, BrowserContext, Locator, Page } from "playwright-core"
import { DEFAULT_SANDBOX_MERCHANT, payHostedPage, startSandbox, type Sandbox } from "../../src/sandbox"
import { REPO_ROOT } from "../../integration-tests/helpers/paths"
import { getFreePort } from "../../integration-tests/helpers/ports"
import { checkoutToPaymentSession, completeCartResponse, type Api, type StoreFixture } from "../../integration-tests/helpers/store"
import { launchChromium } from "./chromium"

const run = promisify(execFile)
const PLUGIN_NAME = "medusa-payment-payneteasy"
const CLI = path.join(REPO_ROOT, "node_modules", "@medusajs", "cli", "cli.js")
export const SCREENSHOT_DIR = process.env.BROWSER_TEST_SCREENSHOTS || path.join(REPO_ROOT, "browser-tests", "screenshots")
export const ADMIN_PATH = "/app"
export const TEST_CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Test Shopper" }

export interface AdminAppProvider {
  /** Registration id: the provider becomes pp_payneteasy_<id>. */
  id: string
  /** Options over the sandbox defaults (baseUrl, endpoint, login and control key of the default sandbox merchant). */
  options?: Record<string, unknown>
}

/** hosted + manual capture (pp_payneteasy_payneteasy) and hosted + automatic capture (pp_payneteasy_auto). */
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

export interface AdminUser {
  email: string
  password: string
  userId: string
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
  /** A storefront checkout paid on the sandbox's hosted page (over HTTP); resolves once Medusa has the order. */
  payHostedOrder(providerId?: string): Promise<{ orderId: string; cartId: string; sessionId: string; gatewayOrderId: string }>
  /** The app's output so far (for failure messages). */
  logs(): string
}

// ---------------------------------------------------------------- plugin build

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) filesUnder(p, out)
    else out.push(p)
  }
  return out
}

function sourceStamp(): string {
  const h = crypto.createHash("sha1")
  for (const f of [path.join(REPO_ROOT, "package.json"), ...filesUnder(path.join(REPO_ROOT, "src")).sort()]) {
    const st = fs.statSync(f)
    h.update(`${path.relative(REPO_ROOT, f)}:${st.size}:${st.mtimeMs}\n`)
  }
  return h.digest("hex")
}

/** `medusa plugin:build` unless .medusa/server was built from the current src/ (stamp file). Returns the build's hash. */
export async function ensurePluginBuilt(): Promise<string> {
  const stampFile = path.join(REPO_ROOT, ".medusa", "server", ".admin-app-build-stamp")
  const stamp = sourceStamp()
  const current = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, "utf8") : ""
  if (current !== stamp || !fs.existsSync(path.join(REPO_ROOT, ".medusa", "server", "src", "admin", "index.mjs"))) {
    await sh(process.execPath, [CLI, "plugin:build"], REPO_ROOT, 5 * 60_000)
    fs.writeFileSync(stampFile, stamp)
  }
  return crypto.createHash("sha1").update(stamp).digest("hex").slice(0, 12)
}

async function sh(cmd: string, args: string[], cwd: string, timeout: number, env: NodeJS.ProcessEnv = childEnv()) {
  try {
    return await run(cmd, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 })
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string }
    const tail = `${e.stdout ?? ""}\n${e.stderr ?? ""}`.split("\n").filter(Boolean).slice(-25).join("\n")
    throw new Error(`\`${path.basename(cmd)} ${args.map((a) => path.basename(a)).join(" ")}\` failed: ${e.message.split("\n")[0]}\n${tail}`)
  }
}

/** Jest's NODE_ENV=test, NODE_OPTIONS and worker ids are not the app's. */
function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of Object.keys(env)) {
    if (key.startsWith("TS_NODE_") || key === "NODE_OPTIONS" || key === "JEST_WORKER_ID" || key === "NODE_ENV") delete env[key]
  }
  return { ...env, MEDUSA_DISABLE_TELEMETRY: "true", ...extra }
}

// ---------------------------------------------------------------- the app directory

export const APP_DIR = path.join(
  os.tmpdir(),
  `medusa-payneteasy-admin-app-${crypto.createHash("sha1").update(REPO_ROOT).digest("hex").slice(0, 10)}`
)

const MEDUSA_CONFIG = `// Written by browser-tests/helpers/admin-app.ts. Everything variable comes from the environment.
const { defineConfig, Modules } = require("@medusajs/framework/utils")
const providers = JSON.parse(process.env.PNE_ADMIN_APP_PROVIDERS || "[]")
const secret = "payneteasy-admin-browser-tests"
module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: { storeCors: "*", adminCors: "*", authCors: "*", jwtSecret: secret, cookieSecret: secret },
  },
  admin: {
    path: "${ADMIN_PATH}",
    vite: () => ({
      cacheDir: process.env.PNE_ADMIN_VITE_CACHE,
      optimizeDeps: { include: ["${PLUGIN_NAME}/admin"] },
      logLevel: "warn",
    }),
  },
  plugins: [{ resolve: "${PLUGIN_NAME}", options: {} }],
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      key: Modules.PAYMENT,
      options: {
        webhook_delay: 50,
        webhook_retries: 3,
        providers: providers.map((p) => ({ resolve: "${PLUGIN_NAME}/providers/payneteasy", id: p.id, options: p.options })),
      },
    },
  ],
})
`

/** Writes the app directory (idempotent) and installs the current plugin build into it. */
export function prepareAppDir(buildHash: string): string {
  fs.mkdirSync(path.join(APP_DIR, "node_modules"), { recursive: true })
  fs.mkdirSync(path.join(APP_DIR, "logs"), { recursive: true })
  const medusaVersion = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "node_modules", "@medusajs", "framework", "package.json"), "utf8")).version
  const pkg = {
    name: "payneteasy-admin-browser-app",
    private: true,
    version: "0.0.0",
    dependencies: { "@medusajs/medusa": medusaVersion, "@medusajs/framework": medusaVersion, "@medusajs/cli": medusaVersion, [PLUGIN_NAME]: "*" },
  }
  writeIfChanged(path.join(APP_DIR, "package.json"), JSON.stringify(pkg, null, 2) + "\n")
  writeIfChanged(path.join(APP_DIR, "medusa-config.js"), MEDUSA_CONFIG)
  // The CLI registers ts-node with this tsconfig (swc: no type check), for the seed script.
  const tsconfig = {
    compilerOptions: { target: "ES2021", module: "Node16", moduleResolution: "Node16", esModuleInterop: true, skipLibCheck: true, experimentalDecorators: true, jsx: "react-jsx" },
    "ts-node": { swc: true },
    exclude: ["node_modules", ".medusa"],
  }
  writeIfChanged(path.join(APP_DIR, "tsconfig.json"), JSON.stringify(tsconfig, null, 2) + "\n")
  // node_modules/*: symlinks to the repository's packages (one copy of each, the versions the repo locks).
  const repoModules = path.join(REPO_ROOT, "node_modules")
  for (const name of fs.readdirSync(repoModules)) {
    if (name === PLUGIN_NAME) continue
    const link = path.join(APP_DIR, "node_modules", name)
    const target = path.join(repoModules, name)
    let current: string | undefined
    try {
      current = fs.readlinkSync(link)
    } catch {
      current = undefined
    }
    if (current === target) continue
    fs.rmSync(link, { recursive: true, force: true })
    fs.symlinkSync(target, link)
  }
  // The plugin, installed: its package.json and a copy of the build (re-copied when the build changed).
  const installed = path.join(APP_DIR, "node_modules", PLUGIN_NAME)
  const marker = path.join(installed, ".installed-build")
  if (!fs.existsSync(marker) || fs.readFileSync(marker, "utf8") !== buildHash) {
    fs.rmSync(installed, { recursive: true, force: true })
    fs.mkdirSync(path.join(installed, ".medusa"), { recursive: true })
    fs.copyFileSync(path.join(REPO_ROOT, "package.json"), path.join(installed, "package.json"))
    fs.cpSync(path.join(REPO_ROOT, ".medusa", "server"), path.join(installed, ".medusa", "server"), { recursive: true })
    fs.writeFileSync(marker, buildHash)
  }
  return APP_DIR
}

function writeIfChanged(file: string, content: string) {
  if (!fs.existsSync(file) || fs.readFileSync(file, "utf8") !== content) fs.writeFileSync(file, content)
}

/** Vite's pre-bundle cache for this plugin build (older ones removed: a stale pre-bundle would serve old widgets). */
function viteCacheDir(buildHash: string): string {
  const root = path.join(APP_DIR, "vite-cache")
  fs.mkdirSync(root, { recursive: true })
  for (const d of fs.readdirSync(root)) if (d !== buildHash) fs.rmSync(path.join(root, d), { recursive: true, force: true })
  return path.join(root, buildHash)
}

// ---------------------------------------------------------------- Postgres

function pgSettings() {
  if (process.env.DATABASE_URL && !process.env.DB_HOST) {
    const u = new URL(process.env.DATABASE_URL)
    return { host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username || "postgres"), password: decodeURIComponent(u.password || "") }
  }
  return {
    host: process.env.DB_HOST || "localhost",
    port: Number(process.env.DB_PORT || 5432),
    user: process.env.DB_USERNAME || "postgres",
    password: process.env.DB_PASSWORD || "",
  }
}

function databaseUrl(db: string): string {
  const s = pgSettings()
  const auth = s.password ? `${encodeURIComponent(s.user)}:${encodeURIComponent(s.password)}` : encodeURIComponent(s.user)
  return `postgres://${auth}@${s.host}:${s.port}/${db}`
}

async function adminSql<T = unknown>(sql: string): Promise<T[]> {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { Client } = require("pg")
  const client = new Client({ ...pgSettings(), database: "postgres" })
  await client.connect()
  try {
    return (await client.query(sql)).rows as T[]
  } finally {
    await client.end()
  }
}

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`

interface Fixture {
  store: StoreFixture
  admin: AdminUser
}

/**
 * The migrated and seeded template database for these providers (made once, then reused). Its name and fixture
 * depend on the Medusa version, the plugin's migrations, the provider ids and the seed code.
 */
async function ensureTemplate(appEnv: NodeJS.ProcessEnv, providerIds: string[]): Promise<{ name: string; fixture: Fixture }> {
  const migrations = fs.readdirSync(path.join(REPO_ROOT, "src", "modules", "payneteasy", "migrations")).sort().join(",")
  const medusaVersion = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "node_modules", "@medusajs", "medusa", "package.json"), "utf8")).version
  const seedCode = ["browser-tests/helpers/admin-app-seed.ts", "integration-tests/helpers/store.ts"]
    .map((f) => fs.readFileSync(path.join(REPO_ROOT, f), "utf8"))
    .join("\n")
  const key = crypto
    .createHash("sha1")
    .update([REPO_ROOT, medusaVersion, migrations, providerIds.join(","), seedCode].join("|"))
    .digest("hex")
    .slice(0, 16)
  const name = `pne_admin_tpl_${key}`
  const fixtureFile = path.join(APP_DIR, "templates", `${name}.json`)
  const exists = (await adminSql(`select 1 from pg_database where datname = '${name}'`)).length > 0
  if (exists && fs.existsSync(fixtureFile)) {
    return { name, fixture: JSON.parse(fs.readFileSync(fixtureFile, "utf8")) }
  }
  fs.mkdirSync(path.dirname(fixtureFile), { recursive: true })
  await adminSql(`drop database if exists ${quoteIdent(name)}`)
  await adminSql(`create database ${quoteIdent(name)}`)
  const env = { ...appEnv, DATABASE_URL: databaseUrl(name) }
  await sh(process.execPath, [CLI, "db:migrate"], APP_DIR, 5 * 60_000, env)
  const seed = path.join(REPO_ROOT, "browser-tests", "helpers", "admin-app-seed.ts")
  const tmpFixture = `${fixtureFile}.tmp`
  await sh(process.execPath, [CLI, "exec", seed], APP_DIR, 5 * 60_000, {
    ...env,
    PNE_ADMIN_APP_FIXTURE: tmpFixture,
    PNE_ADMIN_EMAIL: "admin@payneteasy.browser",
    PNE_ADMIN_PASSWORD: "payneteasy-browser-password",
    PNE_ADMIN_APP_PROVIDER_IDS: JSON.stringify(providerIds),
  })
  fs.renameSync(tmpFixture, fixtureFile)
  return { name, fixture: JSON.parse(fs.readFileSync(fixtureFile, "utf8")) }
}

// ---------------------------------------------------------------- the running app

async function startMedusa(env: NodeJS.ProcessEnv, port: number): Promise<{ child: ChildProcess; output: () => string }> {
  let output = ""
  const log = fs.createWriteStream(path.join(APP_DIR, "logs", `start-${port}.log`))
  const child = spawn(process.execPath, [CLI, "start", "--port", String(port)], {
    cwd: APP_DIR,
    env: { ...env, NODE_ENV: "development", PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  })
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-200_000)
    log.write(d)
  }
  child.stdout?.on("data", keep)
  child.stderr?.on("data", keep)
  const deadline = Date.now() + 3 * 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`medusa start exited with ${child.exitCode}:\n${output.split("\n").slice(-30).join("\n")}`)
    const ok = await fetch(`http://localhost:${port}/health`).then((r) => r.ok, () => false)
    if (ok) return { child, output: () => output }
    if (Date.now() > deadline) throw new Error(`medusa start did not answer /health within 3 minutes:\n${output.split("\n").slice(-30).join("\n")}`)
    await new Promise((r) => setTimeout(r, 300))
  }
}

async function stopMedusa(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.pid === undefined) return
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  process.kill(-child.pid, "SIGTERM")
  const timer = setTimeout(() => child.pid !== undefined && child.exitCode === null && process.kill(-child.pid, "SIGKILL"), 10_000)
  await exited
  clearTimeout(timer)
}

/** An axios-like client over fetch (the shape integration-tests/helpers/store.ts expects). */
export function httpApi(baseUrl: string, headers: () => Record<string, string> = () => ({})): Api {
  const call = async (method: string, url: string, body?: unknown, config?: { headers?: Record<string, string> }) => {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { "content-type": "application/json", ...headers(), ...(config?.headers ?? {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    let data: any = text
    try {
      data = text ? JSON.parse(text) : undefined
    } catch {
      /* not JSON */
    }
    const response = { status: res.status, data }
    if (res.status >= 400) {
      throw Object.assign(new Error(`${method} ${url} → ${res.status}: ${text.slice(0, 300)}`), { response })
    }
    return response
  }
  return {
    get: (url, config) => call("GET", url, undefined, config),
    post: (url, body, config) => call("POST", url, body ?? {}, config),
    delete: (url, config) => call("DELETE", url, undefined, config),
  }
}

/** Logs in through the dashboard's own form; the first load may wait for Vite to pre-bundle the dashboard. */
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
  let dbName: string | undefined
  const timings: Record<string, number> = {}

  beforeAll(async () => {
    const t0 = Date.now()
    const mark = (what: string, since: number) => (timings[what] = Date.now() - since)
    let t = Date.now()
    const buildHash = await ensurePluginBuilt()
    mark("build", t)
    prepareAppDir(buildHash)
    sandbox = await startSandbox({ processingMs: 50, callbackDelayMs: 20, ...options.sandbox, port: 0, host: "127.0.0.1" })
    const port = await getFreePort()
    const url = `http://localhost:${port}`
    const M = DEFAULT_SANDBOX_MERCHANT
    const registrations = providers.map((p) => ({
      id: p.id,
      options: {
        baseUrl: sandbox!.url,
        endpointId: M.endpointIds[0],
        login: M.login,
        controlKey: M.controlKey,
        backendUrl: url,
        timeouts: { connectMs: 2000, headersMs: 10000, bodyMs: 10000 },
        ...(p.options ?? {}),
      },
    }))
    const providerIds = providers.map((p) => `pp_payneteasy_${p.id}`)
    const appEnv = childEnv({
      PNE_ADMIN_APP_PROVIDERS: JSON.stringify(registrations),
      PNE_ADMIN_VITE_CACHE: viteCacheDir(buildHash),
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    })
    t = Date.now()
    const template = await ensureTemplate(appEnv, providerIds)
    mark("template", t)
    dbName = `pne_admin_${process.pid}_${crypto.randomBytes(3).toString("hex")}`
    await adminSql(`create database ${quoteIdent(dbName)} template ${quoteIdent(template.name)}`)
    t = Date.now()
    const started = await startMedusa({ ...appEnv, DATABASE_URL: databaseUrl(dbName) }, port)
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
    await browser?.close().catch(() => undefined)
    await stopMedusa(child)
    await sandbox?.close()
    if (dbName) await adminSql(`drop database if exists ${quoteIdent(dbName)}`).catch(() => undefined)
  }, 60_000)

  return () => {
    if (!app) throw new Error("admin app used outside a test (or its beforeAll failed)")
    return app
  }
}

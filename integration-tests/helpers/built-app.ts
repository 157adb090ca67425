/**
 * A real Medusa app directory that loads the BUILT plugin, as a store installs it — shared by the admin browser
 * harness (browser-tests/helpers/admin-app.ts) and the two-instance reliability spec (reliability-tests/helpers/
 * two-instances.ts), which both need `medusa start` as a child process rather than the in-process test runner.
 *
 * 1. `medusa plugin:build` in the repository, skipped when a stamp of src/ and package.json says the build is current;
 * 2. a persistent app directory under the OS temp dir (per repository checkout): package.json, tsconfig.json, a
 *    medusa-config.js that reads everything variable from the environment (providers, admin on/off, Redis modules),
 *    `node_modules/*` symlinked to the repository's, and the plugin INSTALLED as `node_modules/medusa-payment-payneteasy`
 *    (package.json + a copy of .medusa/server), so Medusa and Vite see it exactly like a published package;
 * 3. a database template: a base migrated once (`medusa db:migrate`) per Medusa version × plugin migrations × Redis
 *    on/off, cloned and seeded (`medusa exec admin-app-seed.ts`: the integration tests' store + an admin user) once
 *    per providers × seed code; each user clones that (`CREATE DATABASE … TEMPLATE …`) and drops its clone afterwards;
 *    both are made under a Postgres advisory lock, so parallel spec files make each once;
 * 4. `medusa start` as a detached child process (its own process group, stopped with SIGTERM then SIGKILL),
 *    NODE_ENV=development unless the caller passes another.
 * Postgres: DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD or DATABASE_URL, else localhost:5432 user postgres.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process"
import crypto from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { promisify } from "node:util"
import { DEFAULT_SANDBOX_MERCHANT } from "../../src/sandbox"
import { REPO_ROOT } from "./paths"
import type { Api, StoreFixture } from "./store"

const run = promisify(execFile)
export const PLUGIN_NAME = "medusa-payment-payneteasy"
const CLI = path.join(REPO_ROOT, "node_modules", "@medusajs", "cli", "cli.js")
export const ADMIN_PATH = "/app"

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
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
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

/**
 * The app's medusa-config.js. Redis (PNE_APP_REDIS_URL set) adds Medusa's own Redis modules exactly as
 * docs/production.md shows them; PNE_APP_REDIS_NAMESPACE only keeps one test run's queues and locks apart
 * from another's on a shared Redis. The worker mode comes from MEDUSA_WORKER_MODE, which Medusa reads itself.
 */
const MEDUSA_CONFIG = `// Written by integration-tests/helpers/built-app.ts. Everything variable comes from the environment.
const { defineConfig, Modules } = require("@medusajs/framework/utils")
const providers = JSON.parse(process.env.PNE_ADMIN_APP_PROVIDERS || "[]")
const secret = "payneteasy-admin-browser-tests"
const redisUrl = process.env.PNE_APP_REDIS_URL
const ns = process.env.PNE_APP_REDIS_NAMESPACE || "medusa"
const redisModules = [
  { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl, queueName: ns + "-events" } },
  { resolve: "@medusajs/medusa/workflow-engine-redis", options: { redis: { redisUrl, queueName: ns + "-workflows", jobQueueName: ns + "-workflow-jobs" } } },
  {
    resolve: "@medusajs/medusa/locking",
    options: {
      providers: [{ resolve: "@medusajs/medusa/locking-redis", id: "locking-redis", is_default: true, options: { redisUrl, namespace: ns + ":lock:" } }],
    },
  },
]
module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    redisUrl,
    // PNE_APP_STORE_CORS: a storefront on another origin (the storefront kit's browser tests); Medusa matches
    // these origins literally, so "*" admits no browser origin.
    http: { storeCors: process.env.PNE_APP_STORE_CORS || "*", adminCors: "*", authCors: process.env.PNE_APP_STORE_CORS || "*", jwtSecret: secret, cookieSecret: secret },
    // Plain http on localhost: a Secure session cookie (NODE_ENV=production's default) would never be set.
    cookieOptions: { secure: false },
  },
  admin: {
    disable: process.env.PNE_APP_ADMIN_DISABLED === "true",
    path: "${ADMIN_PATH}",
    vite: () => ({
      cacheDir: process.env.PNE_ADMIN_VITE_CACHE,
      optimizeDeps: { include: ["${PLUGIN_NAME}/admin"] },
      logLevel: "warn",
    }),
  },
  // callback processing after 50 ms, not the plugin's default second: keeps tests quick, as webhook_delay below
  plugins: [{ resolve: "${PLUGIN_NAME}", options: { callbackProcessingDelayMs: 50 } }],
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
    ...(redisUrl ? redisModules : []),
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

export function databaseUrl(db: string): string {
  const s = pgSettings()
  const auth = s.password ? `${encodeURIComponent(s.user)}:${encodeURIComponent(s.password)}` : encodeURIComponent(s.user)
  return `postgres://${auth}@${s.host}:${s.port}/${db}`
}

export async function adminSql<T = unknown>(sql: string): Promise<T[]> {
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

export const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`

export interface AdminUser {
  email: string
  password: string
  userId: string
}

export interface AppFixture {
  store: StoreFixture
  admin: AdminUser
}

/**
 * Runs `fn` holding a Postgres advisory lock named `name` (on its own connection): spec files in parallel workers
 * that need the same template make it once, the others wait for it and then reuse it.
 */
async function withAdvisoryLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { Client } = require("pg")
  const client = new Client({ ...pgSettings(), database: "postgres" })
  await client.connect()
  try {
    await client.query("select pg_advisory_lock(hashtext($1))", [name])
    return await fn()
  } finally {
    await client.end() // ends the session, which releases the lock
  }
}

const databaseExists = async (name: string) => (await adminSql(`select 1 from pg_database where datname = '${name}'`)).length > 0

/**
 * The migrated (not seeded) database every seeded template starts from: `medusa db:migrate` once per Medusa version ×
 * plugin migrations × Redis on/off, however many provider sets the specs use.
 */
export async function ensureMigratedBase(appEnv: NodeJS.ProcessEnv): Promise<string> {
  const migrations = fs.readdirSync(path.join(REPO_ROOT, "src", "modules", "payneteasy", "migrations")).sort().join(",")
  const medusaVersion = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "node_modules", "@medusajs", "medusa", "package.json"), "utf8")).version
  const key = crypto
    .createHash("sha1")
    .update([REPO_ROOT, medusaVersion, migrations, appEnv.PNE_APP_REDIS_URL ? "redis" : "local"].join("|"))
    .digest("hex")
    .slice(0, 16)
  const name = `pne_admin_base_${key}`
  const marker = path.join(APP_DIR, "templates", `${name}.migrated`)
  return withAdvisoryLock(name, async () => {
    if ((await databaseExists(name)) && fs.existsSync(marker)) return name
    fs.mkdirSync(path.dirname(marker), { recursive: true })
    await adminSql(`drop database if exists ${quoteIdent(name)}`)
    await adminSql(`create database ${quoteIdent(name)}`)
    await sh(process.execPath, [CLI, "db:migrate"], APP_DIR, 5 * 60_000, { ...appEnv, DATABASE_URL: databaseUrl(name) })
    fs.writeFileSync(marker, new Date().toISOString())
    return name
  })
}

/**
 * The migrated and seeded template database for these providers (made once, then reused): a clone of the migrated
 * base (ensureMigratedBase) seeded for these provider ids. Its name and fixture depend on the base, the provider ids
 * and the seed code.
 */
export async function ensureTemplate(appEnv: NodeJS.ProcessEnv, providerIds: string[]): Promise<{ name: string; fixture: AppFixture }> {
  const base = await ensureMigratedBase(appEnv)
  const seedCode = ["browser-tests/helpers/admin-app-seed.ts", "integration-tests/helpers/store.ts"]
    .map((f) => fs.readFileSync(path.join(REPO_ROOT, f), "utf8"))
    .join("\n")
  const key = crypto
    .createHash("sha1")
    .update([base, providerIds.join(","), seedCode].join("|"))
    .digest("hex")
    .slice(0, 16)
  const name = `pne_admin_tpl_${key}`
  const fixtureFile = path.join(APP_DIR, "templates", `${name}.json`)
  return withAdvisoryLock(name, async () => {
    if ((await databaseExists(name)) && fs.existsSync(fixtureFile)) {
      return { name, fixture: JSON.parse(fs.readFileSync(fixtureFile, "utf8")) }
    }
    fs.mkdirSync(path.dirname(fixtureFile), { recursive: true })
    await adminSql(`drop database if exists ${quoteIdent(name)}`)
    await adminSql(`create database ${quoteIdent(name)} template ${quoteIdent(base)}`)
    const seed = path.join(REPO_ROOT, "browser-tests", "helpers", "admin-app-seed.ts")
    const tmpFixture = `${fixtureFile}.tmp`
    await sh(process.execPath, [CLI, "exec", seed], APP_DIR, 5 * 60_000, {
      ...appEnv,
      DATABASE_URL: databaseUrl(name),
      PNE_ADMIN_APP_FIXTURE: tmpFixture,
      PNE_ADMIN_EMAIL: "admin@payneteasy.browser",
      PNE_ADMIN_PASSWORD: "payneteasy-browser-password",
      PNE_ADMIN_APP_PROVIDER_IDS: JSON.stringify(providerIds),
    })
    fs.renameSync(tmpFixture, fixtureFile)
    return { name, fixture: JSON.parse(fs.readFileSync(fixtureFile, "utf8")) }
  })
}

// ---------------------------------------------------------------- the running app

export interface RunningMedusa {
  child: ChildProcess
  /** The process's output so far (the last 200 kB). */
  output: () => string
}

/** `medusa start --port <port>` in the app directory; resolves once /health answers (a worker-mode process serves it too). */
export async function startMedusa(env: NodeJS.ProcessEnv, port: number, label = "start"): Promise<RunningMedusa> {
  let output = ""
  const log = fs.createWriteStream(path.join(APP_DIR, "logs", `${label}-${port}.log`))
  const child = spawn(process.execPath, [CLI, "start", "--port", String(port)], {
    cwd: APP_DIR,
    // development unless the caller says otherwise (the admin browser specs run production: the prebuilt dashboard)
    env: { ...env, NODE_ENV: env.NODE_ENV ?? "development", PORT: String(port) },
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

export async function stopMedusa(child: ChildProcess | undefined): Promise<void> {
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


// ---------------------------------------------------------------- providers and databases

export interface AppProvider {
  /** Registration id: the provider becomes pp_payneteasy_<id>. */
  id: string
  /** Options over the sandbox defaults (baseUrl, endpoint, login and control key of the default sandbox merchant). */
  options?: Record<string, unknown>
}

/** The provider registrations for PNE_ADMIN_APP_PROVIDERS: the default sandbox merchant, callbacks to `backendUrl`. */
export function sandboxRegistrations(providers: AppProvider[], sandboxUrl: string, backendUrl: string) {
  const M = DEFAULT_SANDBOX_MERCHANT
  return providers.map((p) => ({
    id: p.id,
    options: {
      baseUrl: sandboxUrl,
      endpointId: M.endpointIds[0],
      login: M.login,
      controlKey: M.controlKey,
      backendUrl,
      timeouts: { connectMs: 2000, headersMs: 10000, bodyMs: 10000 },
      ...(p.options ?? {}),
    },
  }))
}

/** A fresh database cloned from the template; `drop()` removes it. */
export async function cloneTemplate(template: string, prefix: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${crypto.randomBytes(3).toString("hex")}`
  await adminSql(`create database ${quoteIdent(name)} template ${quoteIdent(template)}`)
  // WITH (FORCE) (Postgres 13+): the stopped app's backends may linger, and a plain DROP waits for them.
  const drop = () =>
    adminSql(`drop database if exists ${quoteIdent(name)} with (force)`).then(
      () => undefined,
      (e: { code?: string }) => (e?.code === "42601" ? adminSql(`drop database if exists ${quoteIdent(name)}`).then(() => undefined) : Promise.reject(e))
    )
  return { name, url: databaseUrl(name), drop }
}

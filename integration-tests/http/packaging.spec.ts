/**
 * Packaging: what `npm pack` ships, and whether it works in a Medusa app that is not this repository.
 * 1. `medusa plugin:build` + `npm pack`: the tarball holds the built plugin (every `exports` target), the bin and the
 *    README — and nothing private: no TypeScript sources, tests, integration harness, demo, env files or key material.
 * 2. A fresh Medusa 2.21.2 app in a temp dir (Medusa installed while the plugin builds) installs the tarball with a
 *    real `npm install` (warm cache, offline preferred), takes README.md's medusa-config.ts verbatim, runs `medusa db:migrate`, creates an admin with
 *    `medusa user`, starts with `medusa start`, and must list `pp_payneteasy_payneteasy` through the admin API and
 *    serve the plugin's callback route from the installed package.
 * Slow by nature (build + install + two Medusa boots, about three minutes on 2 cores) but it is the only test that
 * sees the package the way a store owner does.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { Client } from "pg"
import { DEFAULT_SANDBOX_MERCHANT } from "../../src/sandbox"
import { REPO_ROOT } from "../helpers/paths"
import { getFreePort } from "../helpers/ports"
import { installKey, installWithCache } from "../packaging/medusa-install-cache"
import {
  buildAndPack, childEnv, copyOfRepository, extract, installMedusaApp, removeInBackground, sh, startApp, stopApp, tarballFiles, writeFreshApp,
} from "../packaging/fresh-app"

jest.setTimeout(15 * 60_000)

// Unique per run: several checkouts may run this spec against one Postgres at once.
const DB_NAME = `medusa_payneteasy_packaging_${process.pid}`
// Made in the describe's beforeAll, so a run that filters its tests out leaves no directory behind.
let work = ""
const timings: Record<string, number> = {}

function dbAdmin() {
  return new Client({
    host: process.env.DB_HOST ?? "localhost",
    port: Number(process.env.DB_PORT ?? 5432),
    user: process.env.DB_USERNAME ?? "postgres",
    password: process.env.DB_PASSWORD || undefined,
    database: "postgres",
  })
}

function databaseUrl(): string {
  const user = encodeURIComponent(process.env.DB_USERNAME ?? "postgres")
  const password = process.env.DB_PASSWORD ? `:${encodeURIComponent(process.env.DB_PASSWORD)}` : ""
  return `postgres://${user}${password}@${process.env.DB_HOST ?? "localhost"}:${process.env.DB_PORT ?? 5432}/${DB_NAME}`
}

async function recreateDatabase({ create = true } = {}) {
  const client = dbAdmin()
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`)
    if (create) await client.query(`CREATE DATABASE "${DB_NAME}"`)
  } finally {
    await client.end()
  }
}

describe("npm package", () => {
  let tarball: string
  let files: string[]

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "payneteasy-packaging-"))
    // Packed from a copy of the repository, whose build the other specs' apps install (copyOfRepository says why).
    const source = copyOfRepository(path.join(work, "source"))
    // No build beforehand: `npm pack` alone must produce the built plugin (package.json's prepack), so a maintainer
    // cannot publish an empty or stale build. A marker left in the old build proves the tarball's build is new.
    const stale = path.join(source, ".medusa", "server", "src", "STALE_BUILD_MARKER.js")
    fs.mkdirSync(path.dirname(stale), { recursive: true })
    fs.writeFileSync(stale, "// left by the packaging spec: a fresh build removes it\n")
    // Medusa goes into the fresh app meanwhile (the plugin is added by the install test, from the tarball).
    const [packed, medusa] = await Promise.all([buildAndPack(work, source), installMedusaApp(path.join(work, "app"))])
    tarball = packed.tarball
    timings.pack_with_build = packed.packMs
    timings[medusa.fromCache ? "copy_medusa_install_meanwhile" : "install_medusa_meanwhile"] = medusa.ms
    files = await tarballFiles(tarball)
  })

  afterAll(async () => {
    console.log(`[packaging] timings (s): ${Object.entries(timings).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`).join(", ")}`)
    await recreateDatabase({ create: false }).catch(() => undefined)
    if (work && process.env.PAYNETEASY_KEEP_PACKAGING_APP !== "1") removeInBackground(work)
  })

  it("is built by npm pack itself (prepack): nothing from an earlier build survives", () => {
    expect(files).toContain(".medusa/server/src/providers/payneteasy/index.js")
    expect(files).not.toContain(".medusa/server/src/STALE_BUILD_MARKER.js")
  })

  it("contains the built plugin, its bin and README, and every path package.json exports", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"))
    for (const f of [
      "package.json",
      "README.md",
      "bin/medusa-payneteasy.js",
      ".medusa/server/src/providers/payneteasy/index.js",
      ".medusa/server/src/api/payneteasy/callback/route.js",
      ".medusa/server/src/api/payneteasy/return/route.js",
      ".medusa/server/src/modules/payneteasy/index.js",
      ".medusa/storefront/index.mjs",
      ".medusa/storefront/react.cjs",
      ".medusa/storefront/methods.mjs",
      ".medusa/storefront/styles.css",
    ]) {
      expect(files).toContain(f)
    }
    // Every concrete exports target must be in the tarball (wildcards are checked through the entries above).
    const targets: string[] = []
    const collect = (v: unknown) => {
      if (typeof v === "string") targets.push(v.replace(/^\.\//, ""))
      else if (v && typeof v === "object") Object.values(v).forEach(collect)
    }
    collect(pkg.exports)
    for (const t of targets.filter((t) => !t.includes("*"))) expect(files).toContain(t)
    const bin = Object.values(pkg.bin ?? {}) as string[]
    for (const b of bin) expect(files).toContain(b.replace(/^\.\//, ""))
  })

  it("ships nothing private: no sources, tests, harness, demo, env files or key material", async () => {
    const forbidden = files.filter(
      (f) =>
        /(^|\/)__tests__\//.test(f) ||
        /\.(spec|test)\.[cm]?js$/.test(f) ||
        (/\.tsx?$/.test(f) && !f.endsWith(".d.ts")) ||
        /^(src|integration-tests|scripts|bench|\.ci|\.demo|coverage|node_modules)\//.test(f) ||
        /^\.medusa\/server\/(?!src\/)/.test(f) ||
        /(^|\/)\.env(\.|$)/.test(f) ||
        /\.(pem|key|p12|pfx)$/.test(f) ||
        /(^|\/)(\.npmrc|\.git\/)/.test(f)
    )
    expect(forbidden).toEqual([])
    const root = await extract(tarball, path.join(work, "extracted"))
    const withKeys = files.filter((f) =>
      /-----BEGIN [A-Z ]*PRIVATE KEY-----\s*[A-Za-z0-9+/=]{40}/.test(fs.readFileSync(path.join(root, f), "utf8"))
    )
    expect(withKeys).toEqual([])
  })

  it("installs into a fresh Medusa 2.21.2 app configured as README.md says; the app boots and lists the provider", async () => {
    const appDir = path.join(work, "app")
    writeFreshApp(appDir, tarball)

    const install = await sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: appDir, timeoutMs: 8 * 60_000 })
    timings.install = install.ms
    const installed = JSON.parse(fs.readFileSync(path.join(appDir, "node_modules/medusa-payment-payneteasy/package.json"), "utf8"))
    expect(installed.name).toBe("medusa-payment-payneteasy")
    // A real install: a directory with the tarball's content, not a link back into this repository.
    expect(fs.lstatSync(path.join(appDir, "node_modules/medusa-payment-payneteasy")).isSymbolicLink()).toBe(false)
    // Medusa's own files are the app's: copied from the checkout's install cache, if at all, never linked to it.
    expect(fs.statSync(path.join(appDir, "node_modules/@medusajs/framework/package.json")).nlink).toBe(1)
    expect(fs.existsSync(path.join(appDir, "node_modules/medusa-payment-payneteasy/.medusa/server/src/providers/payneteasy/index.js"))).toBe(true)

    // The storefront kit: both entries load from the installed package as CommonJS and as ESM, and export the same API.
    const load = async (entry: string) => {
      const cjs = await sh(process.execPath, ["-e", `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(entry)})).sort()))`], { cwd: appDir, timeoutMs: 60_000 })
      const esm = await sh(process.execPath, ["--input-type=module", "-e", `const m = await import(${JSON.stringify(entry)}); console.log(JSON.stringify(Object.keys(m).filter((k) => k !== "default").sort()))`], { cwd: appDir, timeoutMs: 60_000 })
      const [c, e] = [JSON.parse(cjs.stdout), JSON.parse(esm.stdout)] as string[][]
      expect(e).toEqual(c)
      return c
    }
    expect(await load("medusa-payment-payneteasy/storefront")).toEqual(expect.arrayContaining(["startPayment", "submitCard", "finishReturn", "payWithSavedCard", "createMessages"]))
    expect(await load("medusa-payment-payneteasy/storefront/react")).toEqual(expect.arrayContaining(["PaynetEasyProvider", "HostedPayButton", "DirectCardForm", "PaymentReturn", "SavedCards", "PaynetEasyPayment"]))
    expect(await load("medusa-payment-payneteasy/storefront/methods")).toEqual(["CardIcon", "DEFAULT_METHOD_TITLE", "PAYNETEASY_PROVIDER_PREFIX", "isPaynetEasy", "paymentMethodInfo", "paynetEasyPaymentInfo"])
    // What the kit's bundles import: the core nothing, the methods entry the core and React's JSX runtime (no hooks, so
    // server components may import it), the React part only React and the other two (no server code).
    const kitDir = path.join(appDir, "node_modules/medusa-payment-payneteasy/.medusa/storefront")
    const importsOf = (file: string) => {
      const text = fs.readFileSync(path.join(kitDir, file), "utf8")
      return [...new Set([...text.matchAll(/(?:from\s*|require\(|import\()\s*["']([^"']+)["']/g)].map((m) => m[1]))].sort()
    }
    expect(importsOf("index.mjs")).toEqual([])
    expect(importsOf("index.cjs")).toEqual([])
    const reactImports = ["medusa-payment-payneteasy/storefront", "medusa-payment-payneteasy/storefront/methods", "react", "react/jsx-runtime"]
    expect(importsOf("react.mjs")).toEqual(reactImports)
    expect(importsOf("react.cjs")).toEqual(reactImports)
    expect(importsOf("methods.mjs")).toEqual(["medusa-payment-payneteasy/storefront", "react/jsx-runtime"])
    expect(fs.existsSync(path.join(kitDir, "types/index.d.ts")) && fs.existsSync(path.join(kitDir, "types/react/index.d.ts"))).toBe(true)

    await recreateDatabase()
    const port = await getFreePort()
    const env = childEnv({
      NODE_ENV: "development",
      DATABASE_URL: databaseUrl(),
      PAYNETEASY_BASE_URL: "http://127.0.0.1:9/paynet",
      PAYNETEASY_ENDPOINT_ID: DEFAULT_SANDBOX_MERCHANT.endpointIds[0],
      PAYNETEASY_LOGIN: DEFAULT_SANDBOX_MERCHANT.login,
      PAYNETEASY_CONTROL_KEY: DEFAULT_SANDBOX_MERCHANT.controlKey,
      MEDUSA_BACKEND_URL: `http://127.0.0.1:${port}`,
    })
    const medusa = path.join(appDir, "node_modules/@medusajs/cli/cli.js")
    timings.migrate = (await sh(process.execPath, [medusa, "db:migrate"], { cwd: appDir, env, timeoutMs: 5 * 60_000 })).ms
    const email = "admin@packaging.test"
    const password = "packaging-test-password"
    await sh(process.execPath, [medusa, "user", "-e", email, "-p", password], { cwd: appDir, env, timeoutMs: 3 * 60_000 })

    const started = Date.now()
    const app = await startApp(appDir, env, port)
    timings.start = Date.now() - started
    try {
      const base = `http://127.0.0.1:${port}`
      const login = await fetch(`${base}/auth/user/emailpass`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      })
      expect(login.status).toBe(200)
      const { token } = (await login.json()) as { token: string }
      const res = await fetch(`${base}/admin/payments/payment-providers`, { headers: { authorization: `Bearer ${token}` } })
      expect(res.status).toBe(200)
      const body = (await res.json()) as { payment_providers: Array<{ id: string; is_enabled: boolean }> }
      expect(body.payment_providers).toContainEqual({ id: "pp_payneteasy_payneteasy", is_enabled: true })

      // The plugin's own route, served from the installed package: a callback without parameters is refused as malformed.
      const callback = await fetch(`${base}/payneteasy/callback`)
      expect(callback.status).toBe(400)
    } finally {
      await stopApp(app.child)
    }
  })
})

/** The checkout's cache of Medusa's own install (integration-tests/packaging/medusa-install-cache.ts), with a stand-in
 *  for `npm install` that writes a small tree: a file, a nested package and a .bin link. */
describe("Medusa's install for the fresh app, made once per checkout", () => {
  let root = ""
  let cache = ""
  let installs = 0
  const fakeInstall = async (dir: string) => {
    installs++
    fs.mkdirSync(path.join(dir, "node_modules", "pkg", "bin"), { recursive: true })
    fs.writeFileSync(path.join(dir, "node_modules", "pkg", "bin", "cli.js"), "// cli\n")
    fs.mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true })
    fs.symlinkSync("../pkg/bin/cli.js", path.join(dir, "node_modules", ".bin", "pkg"))
    fs.writeFileSync(path.join(dir, "package-lock.json"), `{"install":${installs}}\n`)
  }
  const pkgA = '{"name":"a"}\n'
  const pkgB = '{"name":"b"}\n'
  const app = (name: string) => path.join(root, name)

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "payneteasy-install-cache-"))
    cache = path.join(root, "cache")
  })
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

  it("installs once for a package.json, then copies: same tree, links kept, the package.json written", async () => {
    const first = await installWithCache(app("one"), pkgA, fakeInstall, cache)
    const second = await installWithCache(app("two"), pkgA, fakeInstall, cache)
    expect([first.fromCache, second.fromCache, installs]).toEqual([false, true, 1])
    expect(fs.readdirSync(cache)).toEqual([installKey(pkgA)])
    expect(fs.readFileSync(path.join(app("two"), "package.json"), "utf8")).toBe(pkgA)
    expect(fs.readFileSync(path.join(app("two"), "package-lock.json"), "utf8")).toBe('{"install":1}\n')
    expect(fs.readlinkSync(path.join(app("two"), "node_modules", ".bin", "pkg"))).toBe("../pkg/bin/cli.js")
    expect(fs.readFileSync(path.join(app("two"), "node_modules", ".bin", "pkg"), "utf8")).toBe("// cli\n")
  })

  it("gives each app its own files: a write in place into one changes neither the cache nor the next app", async () => {
    fs.writeFileSync(path.join(app("two"), "package-lock.json"), '{"plugin":"added"}\n')
    fs.appendFileSync(path.join(app("two"), "node_modules", "pkg", "bin", "cli.js"), "// changed in place\n")
    const third = await installWithCache(app("three"), pkgA, fakeInstall, cache)
    expect(third.fromCache).toBe(true)
    expect(fs.readFileSync(path.join(app("three"), "package-lock.json"), "utf8")).toBe('{"install":1}\n')
    expect(fs.readFileSync(path.join(app("three"), "node_modules", "pkg", "bin", "cli.js"), "utf8")).toBe("// cli\n")
    expect(fs.statSync(path.join(app("three"), "node_modules", "pkg", "bin", "cli.js")).nlink).toBe(1)
  })

  it("installs again for another package.json (or Node version) and keeps only the newest entry", async () => {
    const other = await installWithCache(app("four"), pkgB, fakeInstall, cache)
    expect([other.fromCache, installs]).toEqual([false, 2])
    expect(fs.readdirSync(cache)).toEqual([installKey(pkgB)])
    expect(installKey(pkgA)).not.toBe(installKey(pkgB))
  })

  it("still gives the app its install when the cache cannot be written (a full disk), and says so", async () => {
    const blocked = path.join(root, "not-a-directory")
    fs.writeFileSync(blocked, "")
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined)
    try {
      const result = await installWithCache(app("blocked"), pkgA, fakeInstall, blocked)
      expect([result.fromCache, installs]).toEqual([false, 3])
      expect(fs.readFileSync(path.join(app("blocked"), "node_modules", "pkg", "bin", "cli.js"), "utf8")).toBe("// cli\n")
      expect(warn.mock.calls.join(" ")).toMatch(/not cached/)
    } finally {
      warn.mockRestore()
    }
  })

  it("installs every time with PNE_PACKAGING_MEDUSA_CACHE=off", async () => {
    process.env.PNE_PACKAGING_MEDUSA_CACHE = "off"
    try {
      const uncached = await installWithCache(app("five"), pkgB, fakeInstall, cache)
      expect([uncached.fromCache, installs]).toEqual([false, 4])
    } finally {
      delete process.env.PNE_PACKAGING_MEDUSA_CACHE
    }
  })
})

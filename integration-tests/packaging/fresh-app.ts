/**
 * Helpers for the packaging test: build + `npm pack` this repository, read the tarball, and make a fresh Medusa app
 * (the package.json and tsconfig.json of Medusa's starter, trimmed to what booting needs) that installs the tarball
 * with a real `npm install`, uses the README's medusa-config.ts verbatim, migrates and starts with Medusa's own CLI.
 * Child processes only — nothing here loads Medusa into the Jest process.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { promisify } from "node:util"
import { REPO_ROOT } from "../helpers/paths"
import { installWithCache, type CachedInstall } from "./medusa-install-cache"

const run = promisify(execFile)
export const MEDUSA_VERSION = "2.21.2"

export interface CommandResult {
  stdout: string
  stderr: string
  ms: number
}

/** Runs a command to completion; on failure the error carries the command's last output lines. */
export async function sh(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<CommandResult> {
  const started = Date.now()
  try {
    const { stdout, stderr } = await run(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? childEnv(),
      timeout: opts.timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    })
    return { stdout, stderr, ms: Date.now() - started }
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string }
    const tail = `${e.stdout ?? ""}\n${e.stderr ?? ""}`.split("\n").filter(Boolean).slice(-30).join("\n")
    throw new Error(`\`${cmd} ${args.join(" ")}\` in ${opts.cwd} failed: ${e.message.split("\n")[0]}\n${tail}`)
  }
}

/** The environment for child commands: Jest's NODE_ENV=test / NODE_OPTIONS and ts-node settings are not the app's. */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of Object.keys(env)) {
    if (key.startsWith("TS_NODE_") || key === "NODE_OPTIONS" || key === "JEST_WORKER_ID" || key === "NODE_ENV") delete env[key]
  }
  return { ...env, MEDUSA_DISABLE_TELEMETRY: "true", ...extra }
}

/**
 * A copy of the repository to pack from (its files without node_modules, .git and builds; node_modules linked), so
 * that the prepack build writes the copy's .medusa and never the repository's. The browser tier and the two-instance
 * spec install the repository's build (integration-tests/helpers/built-app.ts); packing in place wiped it, so the next
 * of them built the plugin again (25-30 s of CPU in every `npm test`, issue 38), or raced a build in progress.
 */
export function copyOfRepository(into: string): string {
  const skip = new Set(["node_modules", ".git", ".medusa", ".cache"].map((name) => path.join(REPO_ROOT, name)))
  fs.cpSync(REPO_ROOT, into, { recursive: true, filter: (src) => !skip.has(src) })
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(into, "node_modules"), "dir")
  return into
}

/**
 * `npm pack` of the package in `root` (copyOfRepository's copy) into `dest`, exactly as a maintainer publishes: the
 * package's `prepack` script runs `medusa plugin:build` first, so the tarball can never hold an empty or stale build.
 * Returns the tarball path.
 */
export async function buildAndPack(dest: string, root: string): Promise<{ tarball: string; packMs: number }> {
  const pack = await sh("npm", ["pack", "--json", "--pack-destination", dest], { cwd: root, timeoutMs: 6 * 60_000 })
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("["))) as Array<{ filename: string }>
  return { tarball: path.join(dest, info.filename), packMs: pack.ms }
}

/** Paths inside the tarball, without the leading "package/". */
export async function tarballFiles(tarball: string): Promise<string[]> {
  const { stdout } = await sh("tar", ["-tzf", tarball], { cwd: path.dirname(tarball), timeoutMs: 60_000 })
  return stdout
    .split("\n")
    .filter((l) => l && !l.endsWith("/"))
    .map((l) => l.replace(/^package\//, ""))
}

export async function extract(tarball: string, into: string): Promise<string> {
  fs.mkdirSync(into, { recursive: true })
  await sh("tar", ["-xzf", tarball, "-C", into], { cwd: into, timeoutMs: 60_000 })
  return path.join(into, "package")
}

/** The README's medusa-config.ts block (section "Install into a Medusa app"), verbatim. */
export function readmeMedusaConfig(): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8")
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1])
  const config = blocks.find((b) => b.includes("defineConfig") && b.includes("medusa-payment-payneteasy/providers/payneteasy"))
  if (!config) throw new Error("README.md has no ```ts medusa-config block registering medusa-payment-payneteasy/providers/payneteasy")
  return config
}

/**
 * The fresh app with Medusa alone installed (`npm install` of the starter's dependencies, no plugin yet): started while
 * `npm pack` builds the plugin, since neither needs the other. The install is made once per checkout and copied into
 * later runs' apps (medusa-install-cache.ts says why and how). The test then adds the tarball with a second, real
 * `npm install`, as a store owner adds a plugin to an existing Medusa app.
 */
export async function installMedusaApp(dir: string): Promise<CachedInstall> {
  return installWithCache(dir, JSON.stringify(freshAppPackage(), null, 2) + "\n", (cwd) =>
    sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd, timeoutMs: 8 * 60_000 })
  )
}

/** The starter-like package.json: Medusa, its CLI and the TypeScript tooling; with `tarball`, the plugin from it. */
function freshAppPackage(tarball?: string) {
  const repoPkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { allowScripts?: Record<string, boolean> }
  return {
    name: "fresh-medusa-app",
    version: "0.0.1",
    private: true,
    scripts: { start: "medusa start", dev: "medusa develop" },
    dependencies: {
      "@medusajs/admin-sdk": MEDUSA_VERSION,
      "@medusajs/cli": MEDUSA_VERSION,
      "@medusajs/framework": MEDUSA_VERSION,
      "@medusajs/medusa": MEDUSA_VERSION,
      ...(tarball ? { "medusa-payment-payneteasy": `file:${tarball}` } : {}),
    },
    devDependencies: { "@swc/core": "^1.7.28", "@types/node": "^20.19.0", "ts-node": "^10.9.2", typescript: "^5.6.2" },
    engines: { node: ">=20" },
    // npm 11 on this machine only runs install scripts that are allowed here; same policy as the repository's.
    allowScripts: repoPkg.allowScripts ?? {},
  }
}

/** Writes the fresh app: starter-like package.json depending on Medusa and the tarball, starter tsconfig, README config. */
export function writeFreshApp(dir: string, tarball: string): void {
  fs.mkdirSync(dir, { recursive: true })
  const pkg = freshAppPackage(tarball)
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n")
  // Medusa's starter tsconfig: the CLI's ts-node loads medusa-config.ts with it (Node16 resolution for package exports).
  const tsconfig = {
    compilerOptions: {
      target: "ES2021", esModuleInterop: true, module: "Node16", moduleResolution: "Node16", emitDecoratorMetadata: true,
      experimentalDecorators: true, skipLibCheck: true, skipDefaultLibCheck: true, declaration: false, sourceMap: false,
      inlineSourceMap: true, outDir: "./.medusa/server", rootDir: "./", jsx: "react-jsx", forceConsistentCasingInFileNames: true,
      resolveJsonModule: true, checkJs: false, strictNullChecks: true,
    },
    "ts-node": { swc: true },
    include: ["**/*", ".medusa/types/*"],
    exclude: ["node_modules", ".medusa/server", ".medusa/admin", ".cache"],
  }
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2) + "\n")
  fs.writeFileSync(path.join(dir, "medusa-config.ts"), readmeMedusaConfig())
}

/** `medusa start` in the app (NODE_ENV=development, as `medusa develop` runs it: the admin is served by Vite on
 *  demand, no `medusa build` needed). Resolves once /health answers. */
export async function startApp(dir: string, env: NodeJS.ProcessEnv, port: number): Promise<{ child: ChildProcess; output: () => string }> {
  let output = ""
  const child = spawn(process.execPath, [path.join(dir, "node_modules/@medusajs/cli/cli.js"), "start", "--port", String(port)], {
    cwd: dir,
    env: { ...env, NODE_ENV: "development", PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  })
  child.stdout?.on("data", (d) => (output += d))
  child.stderr?.on("data", (d) => (output += d))
  const deadline = Date.now() + 3 * 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`medusa start exited with ${child.exitCode}:\n${output.split("\n").slice(-30).join("\n")}`)
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)
    if (ok) return { child, output: () => output }
    if (Date.now() > deadline) throw new Error(`medusa start did not answer /health within 3 minutes:\n${output.split("\n").slice(-30).join("\n")}`)
    await new Promise((r) => setTimeout(r, 500))
  }
}

export async function stopApp(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.pid === undefined) return
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  process.kill(-child.pid, "SIGTERM")
  const timer = setTimeout(() => child.pid !== undefined && child.exitCode === null && process.kill(-child.pid, "SIGKILL"), 15_000)
  await exited
  clearTimeout(timer)
}

/** Deleting the fresh app's ~1,100 installed packages takes longer than everything else here on a slow disk, so a
 *  detached `rm -rf` does it after the test run (the directory is in the OS temp dir and uniquely named). */
export function removeInBackground(dir: string): void {
  const child = spawn("rm", ["-rf", dir], { detached: true, stdio: "ignore" })
  child.unref()
}

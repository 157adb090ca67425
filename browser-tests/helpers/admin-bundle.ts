/**
 * The dashboard the admin browser specs load, built ONCE (Vite, production mode) and served as static files by every
 * spec's `medusa start` (NODE_ENV=production), instead of each app serving it through Vite's dev server and each
 * first page load transforming it again. The build is kept in the app directory under a key of what decides it (the
 * plugin build, package-lock.json, the app's medusa-config.js, the build script), so later spec files and later runs
 * on the same checkout reuse it; `public/admin` (where Medusa serves the admin from) points at the current one.
 */
import { execFile } from "node:child_process"
import crypto from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import { promisify } from "node:util"
import { REPO_ROOT } from "../../integration-tests/helpers/paths"
import { APP_DIR, childEnv } from "../../integration-tests/helpers/built-app"

const run = promisify(execFile)
const BUILD_SCRIPT = path.join(__dirname, "build-admin-bundle.js")

/** Where Medusa's `medusa start` serves the admin from in production (ADMIN_RELATIVE_OUTPUT_DIR). */
export const SERVED_ADMIN_DIR = path.join(APP_DIR, "public", "admin")

function bundleKey(buildHash: string): string {
  const h = crypto.createHash("sha1").update(buildHash)
  for (const f of [path.join(REPO_ROOT, "package-lock.json"), path.join(APP_DIR, "medusa-config.js"), BUILD_SCRIPT]) {
    h.update(fs.readFileSync(f))
  }
  return h.digest("hex").slice(0, 12)
}

/**
 * Builds the dashboard (with the installed plugin's extensions) unless the build for this key exists, and points
 * `public/admin` at it. Call after prepareAppDir(buildHash). Returns how long the build took (0 when reused).
 */
export async function ensureAdminBundle(buildHash: string): Promise<{ dir: string; builtMs: number }> {
  const root = path.join(APP_DIR, "admin-bundles")
  fs.mkdirSync(root, { recursive: true })
  const key = bundleKey(buildHash)
  const dir = path.join(root, key)
  let builtMs = 0
  if (!fs.existsSync(path.join(dir, "index.html"))) {
    const t0 = Date.now()
    const tmp = `${dir}.tmp-${process.pid}`
    fs.rmSync(tmp, { recursive: true, force: true })
    try {
      await run(process.execPath, [BUILD_SCRIPT, tmp], {
        cwd: APP_DIR,
        env: childEnv({ NODE_ENV: "production", PNE_ADMIN_VITE_CACHE: path.join(APP_DIR, "vite-cache", key) }),
        timeout: 10 * 60_000,
        maxBuffer: 64 * 1024 * 1024,
      })
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string }
      const tail = `${e.stdout ?? ""}\n${e.stderr ?? ""}`.split("\n").filter(Boolean).slice(-25).join("\n")
      throw new Error(`building the admin dashboard failed: ${e.message.split("\n")[0]}\n${tail}`)
    }
    fs.rmSync(dir, { recursive: true, force: true })
    fs.renameSync(tmp, dir)
    builtMs = Date.now() - t0
  }
  // Older builds (and their Vite caches) go: only the current one is served.
  for (const d of fs.readdirSync(root)) if (d !== key) fs.rmSync(path.join(root, d), { recursive: true, force: true })
  const viteCache = path.join(APP_DIR, "vite-cache")
  if (fs.existsSync(viteCache)) for (const d of fs.readdirSync(viteCache)) if (d !== key) fs.rmSync(path.join(viteCache, d), { recursive: true, force: true })
  fs.mkdirSync(path.dirname(SERVED_ADMIN_DIR), { recursive: true })
  let current: string | undefined
  try {
    current = fs.readlinkSync(SERVED_ADMIN_DIR)
  } catch {
    current = undefined
  }
  if (current !== dir) {
    fs.rmSync(SERVED_ADMIN_DIR, { recursive: true, force: true })
    fs.symlinkSync(dir, SERVED_ADMIN_DIR)
  }
  return { dir, builtMs }
}

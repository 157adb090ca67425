/**
 * Medusa's own install for the packaging spec's fresh app, made once per checkout and copied into every later run's
 * app. Why: `npm install` of Medusa 2.21.2 alone (about 1,100 packages, 88,000 files, 711 MB) costs about 53 s of CPU
 * on 2 cores, on every `npm test` (issue 38), while a plain copy of the result costs about 3 s. What the spec is about
 * stays real: the plugin is added to that app by its own `npm install` of the tarball, as a store owner adds it.
 *
 * The copy is a copy (`cp -a`), not hard links: any write in place into a file of the app (npm's when the plugin is
 * added, Medusa's when it builds or starts) would reach the cache, and every later run, through a link. The cache lives in node_modules/.cache, so `npm ci`
 * (which a fresh clone and CI start with) empties it; it is keyed by the app's package.json and Node's version, and a
 * new key removes the older ones. PNE_PACKAGING_MEDUSA_CACHE=off installs every time.
 */
import { createHash } from "node:crypto"
import { execFile } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { promisify } from "node:util"
import { REPO_ROOT } from "../helpers/paths"

const run = promisify(execFile)

export const MEDUSA_INSTALL_CACHE = path.join(REPO_ROOT, "node_modules", ".cache", "payneteasy-packaging-medusa")

export interface CachedInstall {
  ms: number
  /** True when the app's node_modules was copied from the cache, false when `install` ran. */
  fromCache: boolean
}

/** The cache entry's name: the app's package.json as written, and the Node version that installs it. */
export function installKey(packageJson: string): string {
  return createHash("sha256").update(`${process.version}\n${packageJson}`).digest("hex").slice(0, 16)
}

/** `cp -a from/. to` (GNU and BSD cp): the tree with its symlinks (node_modules/.bin), modes and times. */
async function copyTree(from: string, to: string): Promise<void> {
  fs.mkdirSync(to, { recursive: true })
  await run("cp", ["-a", `${from}${path.sep}.`, to], { maxBuffer: 16 * 1024 * 1024 })
}

/**
 * Writes `packageJson` into `dir` and gives `dir` the installed tree: a copy of the cached one for this key, or what
 * `install(dir)` makes, which is then copied into the cache (under a temporary name, renamed when whole, so a run cut
 * short leaves no half entry and two runs at once cannot mix theirs).
 */
export async function installWithCache(
  dir: string,
  packageJson: string,
  install: (dir: string) => Promise<unknown>,
  cacheRoot = MEDUSA_INSTALL_CACHE
): Promise<CachedInstall> {
  const started = Date.now()
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, "package.json"), packageJson)
  const cached = process.env.PNE_PACKAGING_MEDUSA_CACHE !== "off"
  const key = installKey(packageJson)
  const entry = path.join(cacheRoot, key)
  if (cached && fs.existsSync(entry)) {
    await copyTree(entry, dir)
    return { ms: Date.now() - started, fromCache: true }
  }
  await install(dir)
  if (cached) await fill(dir, cacheRoot, key)
  return { ms: Date.now() - started, fromCache: false }
}

/** Copies the installed tree into the cache. A cache that cannot be written (a full disk: the entry is 711 MB) only
 *  costs the next run its install again: said, not thrown. */
async function fill(dir: string, cacheRoot: string, key: string): Promise<void> {
  const partial = path.join(cacheRoot, `.partial-${key}-${process.pid}-${Date.now()}`)
  try {
    await copyTree(dir, partial)
    try {
      fs.renameSync(partial, path.join(cacheRoot, key))
    } catch {
      fs.rmSync(partial, { recursive: true, force: true }) // another run filled this key first
    }
    for (const old of fs.readdirSync(cacheRoot)) {
      if (old !== key && !old.startsWith(".partial-")) fs.rmSync(path.join(cacheRoot, old), { recursive: true, force: true })
    }
  } catch (e) {
    try {
      fs.rmSync(partial, { recursive: true, force: true })
    } catch {
      // nothing was written there either
    }
    console.warn(`[packaging] Medusa's install was not cached (the next run installs again): ${(e as Error).message.split("\n")[0]}`)
  }
}

/**
 * Loads this repository's plugin code (src/api, src/modules, src/subscribers, src/jobs, src/workflows, src/links) into
 * the test app FROM SOURCE, the same way a store loads the published plugin.
 *
 * Why not `plugins: [{ resolve: REPO_ROOT }]`? Medusa resolves a plugin to `<package dir>/.medusa/server/src` — the
 * build output (@medusajs/utils get-resolved-plugins.js, MEDUSA_PLUGIN_SOURCE_PATH). Tests must not depend on a fresh
 * build, so we point Medusa at a tiny package in the OS temp dir whose `.medusa/server/src` is a symlink to `<repo>/src`.
 * Medusa then treats src/ exactly like an installed plugin: every src/modules/* is auto-registered with the plugin
 * options, subscribers receive `pluginOptions`, and src/api routes are served. Jest's resolver follows the symlink to
 * the real path, so source files are transformed by @swc/jest and are the same module instances the specs import.
 * (The alternative — making src/ the test *app's* own code — would hand subscribers the whole config as
 * "pluginOptions" and would need src/modules registered by hand; it is less like production.)
 */
import crypto from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { REPO_ROOT } from "./paths"

export function sourcePluginDir(root = REPO_ROOT): string {
  const hash = crypto.createHash("sha1").update(root).digest("hex").slice(0, 10)
  const dir = path.join(os.tmpdir(), `medusa-payneteasy-source-plugin-${hash}`)
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { name: string; version: string }
  const serverDir = path.join(dir, ".medusa", "server")
  const link = path.join(serverDir, "src")
  const target = path.join(root, "src")
  fs.mkdirSync(serverDir, { recursive: true })
  // No "exports" (so Medusa does not look for admin extensions; the runner disables the admin anyway).
  const manifest = JSON.stringify({ name: pkg.name, version: pkg.version, private: true }, null, 2)
  const manifestPath = path.join(dir, "package.json")
  if (!fs.existsSync(manifestPath) || fs.readFileSync(manifestPath, "utf8") !== manifest) {
    fs.writeFileSync(manifestPath, manifest)
  }
  let current: string | undefined
  try {
    current = fs.readlinkSync(link)
  } catch {
    current = undefined
  }
  if (current !== target) {
    fs.rmSync(link, { force: true, recursive: true })
    try {
      fs.symlinkSync(target, link, "dir")
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
    }
  }
  return dir
}

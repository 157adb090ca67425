/**
 * Builds the dashboard for the admin browser-test app once: run by admin-bundle.ts as a child process with the app
 * directory as its working directory, it does what `medusa build --admin-only` does for the admin (the app's own
 * medusa-config.js `admin` options, the INSTALLED plugin's admin extensions, Vite in production mode) into argv[2],
 * without `medusa build`'s type generation and TypeScript step (the app directory has no sources of its own).
 *   node build-admin-bundle.js <outDir>
 */
const path = require("node:path")

async function main() {
  const outDir = process.argv[2]
  if (!outDir) throw new Error("usage: node build-admin-bundle.js <outDir>")
  const config = require(path.join(process.cwd(), "medusa-config.js"))
  const pluginNames = (config.plugins ?? []).map((p) => (typeof p === "string" ? p : p.resolve))
  const { build } = require("@medusajs/admin-bundler")
  await build({
    disable: false,
    sources: [],
    plugins: pluginNames.map((name) => `${name}/admin`),
    ...config.admin,
    outDir,
  })
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)

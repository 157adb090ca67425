/**
 * Builds the storefront kit (src/storefront) into .medusa/storefront for the package's `./storefront` and
 * `./storefront/react` entries: ESM (.mjs) and CommonJS (.cjs) bundles made by esbuild, and .d.ts files made by tsc.
 * `medusa plugin:build` only makes the server build (CommonJS for Node, no types), so the kit needs its own step; it
 * runs after it in `npm run build` / `prepack`.
 *
 * Each entry is bundled on its own: react, react/jsx-runtime and @medusajs/js-sdk stay imports (peer dependencies of
 * the storefront); the React entry imports the core through the package's own name, so a storefront that uses both
 * loads the core once. `--sizes` prints each ESM bundle's minified and gzipped size.
 */
const fs = require("node:fs")
const path = require("node:path")
const zlib = require("node:zlib")
const { execFileSync } = require("node:child_process")
const esbuild = require("esbuild")

const ROOT = path.join(__dirname, "..")
const SRC = path.join(ROOT, "src", "storefront")
const OUT = path.join(ROOT, ".medusa", "storefront")
const PACKAGE = require(path.join(ROOT, "package.json")).name
const EXTERNAL = ["react", "react/jsx-runtime", "react-dom", "@medusajs/js-sdk"]

/** In the React entry, an import of the core (../x) becomes an import of `<package>/storefront`. */
const coreBySelfReference = {
  name: "core-by-self-reference",
  setup(build) {
    build.onResolve({ filter: /^\.\.\// }, (args) =>
      args.importer.startsWith(path.join(SRC, "react")) ? { path: `${PACKAGE}/storefront`, external: true } : undefined
    )
  },
}

const ENTRIES = [
  { name: "index", file: path.join(SRC, "index.ts") },
  { name: "react", file: path.join(SRC, "react", "index.ts") },
]

async function bundle(entry, format, minify = false) {
  const result = await esbuild.build({
    entryPoints: [entry.file],
    bundle: true,
    format,
    platform: "neutral",
    target: "es2020",
    jsx: "automatic",
    external: EXTERNAL,
    plugins: [coreBySelfReference],
    minify,
    write: !minify,
    outfile: path.join(OUT, `${entry.name}.${format === "esm" ? "mjs" : "cjs"}`),
    logLevel: "warning",
  })
  return result.outputFiles?.[0]?.contents
}

async function main() {
  fs.rmSync(OUT, { recursive: true, force: true })
  for (const entry of ENTRIES) {
    await bundle(entry, "esm")
    await bundle(entry, "cjs")
  }
  const tsc = require.resolve("typescript/bin/tsc")
  execFileSync(process.execPath, [
    tsc, "--declaration", "--emitDeclarationOnly", "--outDir", path.join(OUT, "types"), "--rootDir", SRC,
    "--jsx", "react-jsx", "--module", "esnext", "--moduleResolution", "bundler", "--target", "es2020",
    "--strict", "--skipLibCheck", "--esModuleInterop", ...ENTRIES.map((e) => e.file),
  ], { stdio: "inherit", cwd: ROOT })
  if (process.argv.includes("--sizes")) {
    for (const entry of ENTRIES) {
      const min = await bundle(entry, "esm", true)
      const gz = zlib.gzipSync(min, { level: 9 })
      console.log(`storefront ${entry.name}: ${min.length} B minified, ${gz.length} B gzipped`)
    }
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})

/**
 * Builds the storefront kit (src/storefront) into .medusa/storefront for the package's `./storefront`,
 * `./storefront/methods` and `./storefront/react` entries: ESM (.mjs) and CommonJS (.cjs) bundles made by esbuild,
 * .d.ts files made by tsc, and the optional `./storefront/styles.css` copied as it is.
 * `medusa plugin:build` only makes the server build (CommonJS for Node, no types), so the kit needs its own step; it
 * runs after it in `npm run build` / `prepack`.
 *
 * Each entry is bundled on its own: react, react/jsx-runtime and @medusajs/js-sdk stay imports (peer dependencies of
 * the storefront); the methods and React entries import the core (and React the methods entry) through the package's
 * own name, so a storefront that uses them all loads each once. The React entry's files start with "use client" (a
 * directive esbuild drops from bundled sources, so it is put back as a banner): Next.js and other React Server
 * Components frameworks then treat the whole entry as client code, while the core and the methods entry (no hooks,
 * no context) stay importable from server components. `--sizes` prints each ESM bundle's minified and gzipped size.
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

/**
 * In the methods and React entries, an import out of their folder becomes an import of another entry by the package's
 * name: `../methods` → `<package>/storefront/methods`, any other `../x` → `<package>/storefront`.
 */
const entriesBySelfReference = {
  name: "entries-by-self-reference",
  setup(build) {
    build.onResolve({ filter: /^\.\.\// }, (args) => {
      const inside = ["react", "methods"].some((dir) => args.importer.startsWith(path.join(SRC, dir) + path.sep))
      if (!inside) return undefined
      const target = /^\.\.\/methods(\/index)?$/.test(args.path) ? "storefront/methods" : "storefront"
      return { path: `${PACKAGE}/${target}`, external: true }
    })
  },
}

const ENTRIES = [
  { name: "index", file: path.join(SRC, "index.ts") },
  { name: "methods", file: path.join(SRC, "methods", "index.tsx") },
  { name: "react", file: path.join(SRC, "react", "index.ts"), banner: '"use client";' },
]
const STYLES = path.join(SRC, "styles.css")

async function bundle(entry, format, minify = false) {
  const result = await esbuild.build({
    entryPoints: [entry.file],
    bundle: true,
    format,
    platform: "neutral",
    target: "es2020",
    jsx: "automatic",
    external: EXTERNAL,
    plugins: [entriesBySelfReference],
    banner: entry.banner ? { js: entry.banner } : undefined,
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
  fs.copyFileSync(STYLES, path.join(OUT, "styles.css"))
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
    const css = fs.readFileSync(STYLES)
    console.log(`storefront styles.css: ${css.length} B, ${zlib.gzipSync(css, { level: 9 }).length} B gzipped`)
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})

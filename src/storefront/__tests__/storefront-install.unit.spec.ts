/**
 * What a storefront's `npm install medusa-payment-payneteasy` resolves, read from package.json (issue 53, items 1 and
 * 8): no server package is pulled into a storefront (every peer optional), the js-sdk, React and icon peers accept
 * what dtc-starter pins (js-sdk 2.18, React 19) and React 18, the js-sdk range is honest (the kit calls nothing of the
 * js-sdk but `client.fetch`, which every 2.x has), and each storefront entry's types resolve under `moduleResolution`
 * node (typesVersions), node16 and bundler (exports' `types`). The real install and `tsc` run in `npm run test:starter`.
 */
import fs from "node:fs"
import path from "node:path"
// semver is npm's own range arithmetic (hoisted by Medusa's packages); the same rules npm applies to peers
// eslint-disable-next-line @typescript-eslint/no-var-requires
const semver: { satisfies(version: string, range: string): boolean } = require("semver")

const ROOT = path.join(__dirname, "..", "..", "..")
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"))
const peers: Record<string, string> = pkg.peerDependencies ?? {}
const meta: Record<string, { optional?: boolean }> = pkg.peerDependenciesMeta ?? {}

/** What dtc-starter (apps/storefront/package.json) pins, and a React 18 storefront. */
const STARTER = { "@medusajs/js-sdk": "2.18.0", "@medusajs/icons": "2.18.0", react: "19.0.5", "react-dom": "19.0.5" }
const REACT_18 = { react: "18.3.1", "react-dom": "18.3.1" }

describe("installing the package into a storefront", () => {
  it("pulls no peer into a storefront: every peer dependency is optional (npm 7+ installs non-optional peers)", () => {
    expect(Object.keys(peers).length).toBeGreaterThan(0)
    expect(Object.keys(peers).filter((name) => meta[name]?.optional !== true)).toEqual([])
  })

  it("accepts dtc-starter's js-sdk 2.18, icons 2.18 and React 19, and React 18", () => {
    for (const [name, version] of Object.entries({ ...STARTER, ...REACT_18 })) {
      if (peers[name]) expect([name, version, semver.satisfies(version, peers[name])]).toEqual([name, version, true])
    }
    expect(Object.keys(STARTER).filter((name) => !peers[name] && name !== "react-dom")).toEqual([])
  })

  it("the js-sdk range is what the kit needs: its sources call the sdk only through client.fetch", () => {
    const dir = path.join(ROOT, "src", "storefront")
    const files: string[] = []
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory() && e.name !== "__tests__") walk(path.join(d, e.name))
        else if (/\.tsx?$/.test(e.name)) files.push(path.join(d, e.name))
      }
    }
    walk(dir)
    const other = files.filter((f) => /\b(sdk|store)\.(store|auth|admin)\b/.test(fs.readFileSync(f, "utf8")))
    expect(other.map((f) => path.relative(ROOT, f))).toEqual([])
    expect(semver.satisfies("2.0.0", peers["@medusajs/js-sdk"])).toBe(true)
  })

  it("every storefront entry has types for moduleResolution node (typesVersions) and node16/bundler (exports)", () => {
    const entries = Object.entries(pkg.exports as Record<string, unknown>).filter(([k, v]) => k.startsWith("./storefront") && typeof v === "object")
    expect(entries.map(([k]) => k).sort()).toEqual(["./storefront", "./storefront/methods", "./storefront/react"])
    for (const [key, value] of entries) {
      const types = (value as { types?: string }).types
      // `types` must come first: conditions are matched in order
      expect([key, Object.keys(value as object)[0]]).toEqual([key, "types"])
      const mapped = pkg.typesVersions?.["*"]?.[key.slice(2)]
      expect([key, mapped]).toEqual([key, [types!.replace(/^\.\//, "")]])
    }
  })
})

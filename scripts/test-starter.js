#!/usr/bin/env node
/**
 * `npm run test:starter`: the storefront kit in a Next.js storefront shaped like medusajs/dtc-starter
 * (storefront-tests/next-app.spec.ts, issue 53). Kept out of `npm test` (its 15 minutes are spoken for) and run by
 * .ci/run as its own step after it. The test storefront's Next.js, React 19, Tailwind and js-sdk 2.18 live in its own
 * package.json and lockfile, installed here with `npm ci`, so the root `npm ci` stays as lean as it was and the
 * storefront's React 19 never meets the plugin's React 18 dev tree. The spec installs the plugin into it from
 * `npm pack`, as a storefront developer would.
 */
const { spawnSync } = require("node:child_process")
const path = require("node:path")

const ROOT = path.join(__dirname, "..")
const APP = path.join(ROOT, "storefront-tests", "next-app")
const npm = process.platform === "win32" ? "npm.cmd" : "npm"

function run(cmd, args, opts) {
  const started = Date.now()
  const r = spawnSync(cmd, args, { stdio: "inherit", ...opts })
  console.log(`[test:starter] ${[cmd, ...args].join(" ")}: ${((Date.now() - started) / 1000).toFixed(1)} s`)
  if (r.status !== 0) process.exit(r.status ?? 1)
}

run(npm, ["ci", "--no-audit", "--no-fund"], { cwd: APP })
run(npm, ["exec", "--", "jest", "--runInBand", ...process.argv.slice(2)], {
  cwd: ROOT,
  env: { ...process.env, TEST_TYPE: "starter", NODE_OPTIONS: "--experimental-vm-modules" },
})

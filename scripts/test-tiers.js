#!/usr/bin/env node
/**
 * Runs test tiers one after another (`npm run test:<tier>` each, as package.json defines them) and ends with one line
 * per tier: its wall time and its test count, so a slowdown shows in every run's last lines (`npm test`, CI's log).
 *   node scripts/test-tiers.js unit contract browser integration reliability     (npm test)
 *   node scripts/test-tiers.js unit contract                                     (npm run test:quick)
 * Stops at the first tier that fails, like `a && b`; the summary still lists it, and the tiers not run.
 */
const { spawnSync } = require("node:child_process")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")

const tiers = process.argv.slice(2)
if (tiers.length === 0) {
  console.error("usage: node scripts/test-tiers.js <tier>... (unit, contract, browser, integration, reliability)")
  process.exit(2)
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm"
const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), "payneteasy-test-tiers-"))
const rows = []
let failed = false
const started = Date.now()

for (const tier of tiers) {
  if (failed) {
    rows.push(`${tier.padEnd(12)} not run (an earlier tier failed)`)
    continue
  }
  const out = path.join(resultsDir, `${tier}.json`)
  const t0 = Date.now()
  const run = spawnSync(npm, ["run", `test:${tier}`, "--", "--json", `--outputFile=${out}`], { stdio: "inherit" })
  const seconds = (Date.now() - t0) / 1000
  let counts = "no results (jest did not finish)"
  if (fs.existsSync(out)) {
    const r = JSON.parse(fs.readFileSync(out, "utf8"))
    const parts = [`${r.numPassedTests} passed`]
    if (r.numFailedTests) parts.push(`${r.numFailedTests} failed`)
    if (r.numPendingTests + r.numTodoTests) parts.push(`${r.numPendingTests + r.numTodoTests} skipped`)
    counts = `${r.numTotalTests} tests (${parts.join(", ")}) in ${r.numTotalTestSuites} files`
  }
  const ok = run.status === 0
  if (!ok) failed = true
  rows.push(`${tier.padEnd(12)} ${fmt(seconds).padStart(7)}  ${counts}${ok ? "" : `  FAILED (exit ${run.status ?? run.signal})`}`)
}
fs.rmSync(resultsDir, { recursive: true, force: true })

function fmt(s) {
  const whole = Math.round(s)
  return s >= 60 ? `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, "0")}s` : `${s.toFixed(1)}s`
}

console.log(`\n---- test tiers (wall time, tests) ----`)
for (const row of rows) console.log(row)
console.log(`${"total".padEnd(12)} ${fmt((Date.now() - started) / 1000).padStart(7)}`)
process.exit(failed ? 1 : 0)

#!/usr/bin/env node
/**
 * Runs test tiers one after another (`npm run test:<tier>` each, as package.json defines them) and ends with one line
 * per tier: its wall time and its test count, so a slowdown shows in every run's last lines (`npm test`, CI's log).
 *   node scripts/test-tiers.js unit contract integration reliability             (npm test)
 *   node scripts/test-tiers.js unit contract                                     (npm run test:quick)
 *   node scripts/test-tiers.js browser deployment                                (.ci/run, after npm test)
 * Two pairs of tiers, named one after the other, run as one Jest run each, so that one tier's waiting overlaps the
 * other's work (issue 38): unit and contract (`test:unit+contract`: the contract files mostly wait on their sockets;
 * 47 s as two runs) and integration and reliability (`test:integration+reliability`: the integration groups wait out
 * step retries and the provider's timers while the storm and the fuzzer keep a core busy). Such a run's wall time is
 * printed once, on its own line, and each tier's tests on theirs (a file is the contract tier's when
 * scripts/contract-spec-files.js lists it, as jest.config.js decides; the reliability tier's when it is under
 * reliability-tests/).
 * Stops at the first tier that fails, like `a && b`; the summary still lists it, and the tiers not run.
 */
const { spawnSync } = require("node:child_process")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { contractSpecFiles } = require("./contract-spec-files")

const tiers = process.argv.slice(2)
if (tiers.length === 0) {
  console.error("usage: node scripts/test-tiers.js <tier>... (unit, contract, browser, integration, reliability, deployment)")
  process.exit(2)
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm"
const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), "payneteasy-test-tiers-"))
const rows = []
let failed = false
const started = Date.now()

let contractFiles
/** Tiers that run as one Jest run when named one after the other, and which of them a spec file belongs to. */
const PAIRS = [
  { tiers: ["unit", "contract"], tierOf: (file) => ((contractFiles ??= new Set(contractSpecFiles())).has(file) ? "contract" : "unit") },
  { tiers: ["integration", "reliability"], tierOf: (file) => (/[\\/]reliability-tests[\\/]/.test(file) ? "reliability" : "integration") },
]

/** The runs to make: each tier alone, except a pair named one after the other, which runs together. */
const steps = []
for (let i = 0; i < tiers.length; i++) {
  const pair = PAIRS.find((p) => p.tiers[0] === tiers[i] && p.tiers[1] === tiers[i + 1])
  if (pair) i++
  steps.push(pair ?? { tiers: [tiers[i]] })
}

// The first column is as wide as the longest run's name ("integration+reliability").
const WIDTH = Math.max(14, ...steps.map((s) => s.tiers.join("+").length + 1))
for (const step of steps) {
  const name = step.tiers.join("+")
  if (failed) {
    for (const tier of step.tiers) rows.push(`${tier.padEnd(WIDTH)} not run (an earlier tier failed)`)
    continue
  }
  const out = path.join(resultsDir, `${name}.json`)
  const t0 = Date.now()
  const run = spawnSync(npm, ["run", `test:${name}`, "--", "--json", `--outputFile=${out}`], { stdio: "inherit" })
  const seconds = (Date.now() - t0) / 1000
  const ok = run.status === 0
  if (!ok) failed = true
  const verdict = ok ? "" : `  FAILED (exit ${run.status ?? run.signal})`
  const results = fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, "utf8")).testResults : undefined
  if (step.tiers.length === 1) {
    rows.push(`${name.padEnd(WIDTH)} ${fmt(seconds).padStart(7)}  ${counts(results)}${verdict}`)
    continue
  }
  // a pair: one wall time for the run, then each tier's own tests.
  rows.push(`${name.padEnd(WIDTH)} ${fmt(seconds).padStart(7)}  (one Jest run)${verdict}`)
  for (const tier of step.tiers) {
    const mine = results?.filter((r) => step.tierOf(r.name) === tier)
    rows.push(`  ${tier.padEnd(WIDTH - 2)} ${"".padStart(7)}  ${counts(mine)}`)
  }
}
fs.rmSync(resultsDir, { recursive: true, force: true })

/** "N tests (P passed, F failed, S skipped) in K files" of Jest's --json testResults (per file). */
function counts(results) {
  if (!results) return "no results (jest did not finish)"
  const all = results.flatMap((r) => r.assertionResults)
  const n = (status) => all.filter((a) => a.status === status).length
  const parts = [`${n("passed")} passed`]
  if (n("failed")) parts.push(`${n("failed")} failed`)
  if (n("pending") + n("todo") + n("skipped")) parts.push(`${n("pending") + n("todo") + n("skipped")} skipped`)
  const broken = results.filter((r) => r.status === "failed" && r.assertionResults.length === 0).length
  return `${all.length} tests (${parts.join(", ")}) in ${results.length} files${broken ? `, ${broken} files failed to run` : ""}`
}

function fmt(s) {
  const whole = Math.round(s)
  return s >= 60 ? `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, "0")}s` : `${s.toFixed(1)}s`
}

console.log(`\n---- test tiers (wall time, tests) ----`)
for (const row of rows) console.log(row)
console.log(`${"total".padEnd(WIDTH)} ${fmt((Date.now() - started) / 1000).padStart(7)}`)
process.exit(failed ? 1 : 0)

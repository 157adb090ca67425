#!/usr/bin/env node
/**
 * Per-file cost of a tier, measured one spec file at a time (each in its own `jest --maxWorkers=1`), so a slow file
 * shows by itself and a busy machine does not hide it: wall time, the CPU the run used (user+sys of Jest and its
 * workers, from /proc), and the tests. The numbers behind docs/testing.md's table.
 *   node scripts/spec-times.js integration:http integration-tests/http/*.spec.ts
 *   node scripts/spec-times.js reliability reliability-tests/fuzzing.spec.ts
 * Writes a table to stdout, one JSON line per file to $SPEC_TIMES_JSON and each file's Jest output to
 * $SPEC_TIMES_LOGS/<file>.log when set.
 */
const { spawnSync } = require("node:child_process")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")

const [type, ...files] = process.argv.slice(2)
if (!type || files.length === 0) {
  console.error("usage: node scripts/spec-times.js <TEST_TYPE> <spec file>...")
  process.exit(2)
}

const TICK = 100 // USER_HZ on Linux
/** CPU seconds (user, sys) of this process's waited-for children: Jest, and through it its workers. */
function childCpu() {
  const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ")
  return { user: Number(fields[13]) / TICK, sys: Number(fields[14]) / TICK } // cutime, cstime
}

const rows = []
for (const file of files) {
  const out = path.join(os.tmpdir(), `spec-times-${process.pid}.json`)
  const before = childCpu()
  const t0 = Date.now()
  const run = spawnSync("npx", ["jest", "--maxWorkers=1", "--json", `--outputFile=${out}`, file], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, TEST_TYPE: type, NODE_OPTIONS: "--experimental-vm-modules" },
    maxBuffer: 256 * 1024 * 1024,
  })
  const wall = (Date.now() - t0) / 1000
  const after = childCpu()
  const cpu = after.user - before.user + (after.sys - before.sys)
  let tests = "?"
  let passed = 0
  if (fs.existsSync(out)) {
    const r = JSON.parse(fs.readFileSync(out, "utf8"))
    tests = r.numTotalTests
    passed = r.numPassedTests
    fs.rmSync(out)
  }
  const row = { file, wall, cpu: Number(cpu.toFixed(1)), tests, passed, status: run.status, load: os.loadavg()[0] }
  rows.push(row)
  if (process.env.SPEC_TIMES_JSON) fs.appendFileSync(process.env.SPEC_TIMES_JSON, JSON.stringify(row) + "\n")
  if (process.env.SPEC_TIMES_LOGS) {
    fs.mkdirSync(process.env.SPEC_TIMES_LOGS, { recursive: true })
    fs.writeFileSync(path.join(process.env.SPEC_TIMES_LOGS, `${path.basename(file)}.log`), String(run.stderr))
  }
  if (run.status !== 0) process.stderr.write(String(run.stderr).slice(-3000))
  console.log(`${path.basename(file).padEnd(40)} ${wall.toFixed(1).padStart(7)} s wall ${cpu.toFixed(1).padStart(7)} s cpu  ${passed}/${tests} passed  load ${row.load.toFixed(1)}`)
}
const sum = (k) => rows.reduce((s, r) => s + r[k], 0)
console.log(`${"total".padEnd(40)} ${sum("wall").toFixed(1).padStart(7)} s wall ${sum("cpu").toFixed(1).padStart(7)} s cpu`)
process.exit(rows.every((r) => r.status === 0) ? 0 : 1)

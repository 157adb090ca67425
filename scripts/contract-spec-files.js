/**
 * Which unit spec files form the contract tier: those whose code starts a server (the sandbox), opens a connection or
 * spawns a process. Chosen by what the file calls, so a new spec file lands in the right tier without a naming rule.
 * Read by jest.config.js (TEST_TYPE=unit leaves them out, TEST_TYPE=contract runs only them) and by
 * scripts/test-tiers.js (which runs both tiers in one Jest run and counts each tier's tests from this list).
 */
const fs = require("node:fs")
const path = require("node:path")

const REPO_ROOT = path.join(__dirname, "..")
const OPENS = /startSandbox\(|\.listen\(|createServer\(|net\.connect\(|\bspawn(Sync)?\(|\bexecFile(Sync)?\(|\bfetch\(/

/** Absolute paths of the contract tier's spec files, sorted. */
function contractSpecFiles() {
  const found = []
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name)
      if (e.isDirectory()) { if (e.name !== "node_modules" && !e.name.startsWith(".")) walk(p) }
      else if (e.name.endsWith(".unit.spec.ts") && p.includes(`${path.sep}__tests__${path.sep}`) && OPENS.test(fs.readFileSync(p, "utf8"))) found.push(p)
    }
  }
  for (const root of ["src", "bench"]) if (fs.existsSync(path.join(REPO_ROOT, root))) walk(path.join(REPO_ROOT, root))
  return found.sort()
}

module.exports = { contractSpecFiles }

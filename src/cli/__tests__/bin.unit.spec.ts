/**
 * bin/medusa-payneteasy.js as users run it: a child process.
 * - Copied alone into a temp dir (no build beside it) it must say clearly that the CLI needs `npm run build`.
 * - The real bin runs the BUILT CLI (.medusa/server/src/cli/index.js, from `medusa plugin:build`). CI builds before
 *   testing (.ci/run), so there this spawns the built sandbox and waits for its listening line, then SIGTERMs it.
 *   Without a build (a developer running unit tests only) the same test asserts the "not built" message instead —
 *   both branches check real behaviour of the real bin.
 */
import { spawn } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

const ROOT = path.resolve(__dirname, "..", "..", "..")
const BIN = path.join(ROOT, "bin", "medusa-payneteasy.js")
const BUILT = path.join(ROOT, ".medusa", "server", "src", "cli", "index.js")

interface Child {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

function run(file: string, args: string[], untilStdout?: RegExp, onMatch?: (kill: () => void) => void): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env } })
    let stdout = ""
    let stderr = ""
    let matched = false
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000)
    child.stdout.on("data", (d) => {
      stdout += d
      if (untilStdout && !matched && untilStdout.test(stdout)) {
        matched = true
        onMatch?.(() => child.kill("SIGTERM"))
      }
    })
    child.stderr.on("data", (d) => (stderr += d))
    child.on("error", reject)
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr })
    })
  })
}

describe("bin/medusa-payneteasy.js", () => {
  it("says to run the build when the compiled CLI is missing", async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pne-bin-"))
    try {
      fs.mkdirSync(path.join(tmp, "bin"))
      fs.copyFileSync(BIN, path.join(tmp, "bin", "medusa-payneteasy.js"))
      const res = await run(path.join(tmp, "bin", "medusa-payneteasy.js"), ["--help"])
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(/not built/)
      expect(res.stderr).toMatch(/npm run build/)
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true })
    }
  })

  it(fs.existsSync(BUILT) ? "runs the built sandbox: listening line, then a clean stop on SIGTERM" : "without a build, refuses with the build hint", async () => {
    if (!fs.existsSync(BUILT)) {
      const res = await run(BIN, ["sandbox", "--port", "0"])
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(/npm run build/)
      return
    }
    // SIGTERM the moment the line is read: the command must already be listening for it.
    const res = await run(BIN, ["sandbox", "--port", "0"], /sandbox listening on http:\/\/127\.0\.0\.1:\d+\n/, (kill) => kill())
    expect(res.stdout).toMatch(/sandbox listening on http:\/\/127\.0\.0\.1:\d+\n/)
    expect(res.stdout).toMatch(/sandbox stopped \(SIGTERM\)/)
    expect(res.code).toBe(0)
    expect(res.stderr).toBe("")

    const help = await run(BIN, ["--help"])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Usage: medusa-payneteasy <command>/)
  })
})

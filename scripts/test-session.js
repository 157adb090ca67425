#!/usr/bin/env node
/**
 * A test session: one Medusa app booted once, then any integration spec file run against it on request, each run
 * without a boot (issue 38's "a single integration spec against an already booted app"). `npm run test:session` boots
 * and waits; `npm run test:attach -- <spec file>… [-t <pattern>]` (scripts/test-attach.js) asks it for a run over a
 * local socket and prints that run's Jest output, failing when the run fails.
 *
 * Every run is a real Jest run (runCLI, in this process, one file at a time) of the spec file unchanged; what is kept
 * from one run to the next is the first run's vm context and module registry (integration-tests/setup/session-runner.js)
 * holding the app (integration-tests/setup/session-attach.js), so specs see the same live container a boot gives.
 * Each spec file starts, like an app group's member, from the database as the boot left it and a reset sandbox.
 *
 *   npm run test:session                      (PNE_TEST_SESSION_V4=1: the app with the v4 registration, for v4 specs)
 *   npm run test:session -- --idle-minutes 30 (closes itself after that long without a run; default 60)
 * Ctrl-C (or `npm run test:attach -- --stop`) shuts the app down and drops its databases.
 */
const crypto = require("node:crypto")
const fs = require("node:fs")
const net = require("node:net")
const os = require("node:os")
const path = require("node:path")
const { performance } = require("node:perf_hooks")

const REPO_ROOT = path.join(__dirname, "..")
process.env.TEST_TYPE = ["integration:http", "reliability"].includes(process.env.TEST_TYPE) ? process.env.TEST_TYPE : "integration:http"
process.env.MEDUSA_DISABLE_TELEMETRY = process.env.MEDUSA_DISABLE_TELEMETRY ?? "true"
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? "warn"

/** The session's socket: one per checkout (a worktree has its own); PNE_TEST_SESSION_SOCKET names another. */
function socketPath(root = REPO_ROOT) {
  if (process.env.PNE_TEST_SESSION_SOCKET) return process.env.PNE_TEST_SESSION_SOCKET
  const key = crypto.createHash("sha256").update(fs.realpathSync(root)).digest("hex").slice(0, 12)
  return path.join(os.tmpdir(), `pne-test-session-${key}.sock`)
}

/** The Jest config of the session's runs: the tier's, with the session's runner and set-up file. */
function sessionConfig() {
  const tier = require(path.join(REPO_ROOT, "jest.config.js"))
  const { globalSetup, globalTeardown, testSequencer, ...rest } = tier
  return {
    ...rest,
    rootDir: REPO_ROOT,
    // Every spec file of the tier (a group's member too: named, it runs here)
    // (and integration-tests/setup/session-*.spec.*: its boot run, and the probe its own test writes).
    testMatch: [...tier.testMatch, "**/integration-tests/setup/session-*.spec.[jt]s"],
    testPathIgnorePatterns: ["/node_modules/"],
    // setup-env.js runs once, at the boot (session-attach.js): the later runs' own environments are not used.
    setupFiles: [],
    setupFilesAfterEnv: ["<rootDir>/integration-tests/setup/session-attach.js"],
    testRunner: "<rootDir>/integration-tests/setup/session-runner.js",
  }
}

/** `<spec file>… [-t|--testNamePattern <pattern>] [--verbose]`, paths relative to `cwd`. */
function parseRunArgs(args, cwd) {
  const files = []
  const out = { files, testNamePattern: undefined, verbose: false }
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === "-t" || a === "--testNamePattern") out.testNamePattern = args[++i]
    else if (a.startsWith("--testNamePattern=")) out.testNamePattern = a.slice("--testNamePattern=".length)
    else if (a === "--verbose") out.verbose = true
    else if (a.startsWith("-")) throw new Error(`test:attach takes spec files, -t <pattern> and --verbose; not ${a}`)
    else files.push(path.resolve(cwd, a))
  }
  if (!files.length) throw new Error("name the spec file(s) to run: npm run test:attach -- integration-tests/http/smoke.spec.ts")
  for (const f of files) if (!fs.existsSync(f)) throw new Error(`no such file: ${f}`)
  return out
}

async function main() {
  const argv = process.argv.slice(2)
  const idleAt = argv.indexOf("--idle-minutes")
  const idleMinutes = idleAt >= 0 ? Number(argv[idleAt + 1]) : Number(process.env.PNE_TEST_SESSION_IDLE_MINUTES || 60)
  const sock = socketPath()
  if (await answers(sock)) {
    console.error(`[session] a session for this checkout is already running (${sock}): use npm run test:attach`)
    process.exit(1)
  }
  fs.rmSync(sock, { force: true })

  // Loaded before Jest's first run, so Jest's require of the test runner finds this instance (closeSession, state).
  const sessionRunner = require("../integration-tests/setup/session-runner")
  const { runCLI } = require("jest")
  const config = JSON.stringify(sessionConfig())
  let queue = Promise.resolve()
  let closing

  const runJest = (files, { testNamePattern, verbose }, write) => {
    const run = queue.then(async () => {
      const restore = tee(write)
      const wall = performance.now()
      const cpu = process.cpuUsage()
      try {
        const { results } = await runCLI(
          { _: files, $0: "test-session", config, runInBand: true, runTestsByPath: true, testNamePattern, verbose, watchman: false, ci: true },
          [REPO_ROOT],
        )
        const used = process.cpuUsage(cpu)
        const state = sessionRunner.sessionState()
        const summary = { success: results.success && results.numTotalTests > 0, tests: results.numTotalTests, failed: results.numFailedTests + results.numRuntimeErrorTestSuites, boots: state?.boots ?? 0, runs: state?.runs ?? 0, wallSeconds: (performance.now() - wall) / 1000, cpuSeconds: (used.user + used.system) / 1e6 }
        process.stderr.write(`[session] run ${summary.runs}: ${summary.tests} tests, ${summary.failed} failed, ${summary.wallSeconds.toFixed(1)} s wall, ${summary.cpuSeconds.toFixed(1)} s CPU; app boots so far: ${summary.boots}\n`)
        return summary
      } finally {
        restore()
      }
    })
    queue = run.catch(() => undefined)
    return run
  }

  const close = (code) => {
    closing ??= (async () => {
      process.stderr.write("[session] closing: app shutdown, sandbox, databases\n")
      server.close()
      fs.rmSync(sock, { force: true })
      await queue
      await sessionRunner.closeSession().catch((e) => console.error("[session] close:", e))
      await require("../integration-tests/setup/global-teardown.js")().catch(() => undefined)
      process.exit(code)
    })()
    return closing
  }

  let idleTimer
  const touch = () => {
    clearTimeout(idleTimer)
    if (idleMinutes > 0) idleTimer = setTimeout(() => { process.stderr.write(`[session] idle for ${idleMinutes} min\n`); close(0) }, idleMinutes * 60_000)
  }

  const server = net.createServer((socket) => {
    let buffer = ""
    socket.setEncoding("utf8")
    socket.on("error", () => undefined)
    socket.on("data", async (chunk) => {
      buffer += chunk
      const nl = buffer.indexOf("\n")
      if (nl < 0) return
      const request = JSON.parse(buffer.slice(0, nl))
      buffer = ""
      const send = (message) => { if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`) }
      touch()
      try {
        if (request.cmd === "status") {
          const state = sessionRunner.sessionState()
          send({ done: true, success: true, boots: state?.boots ?? 0, runs: state?.runs ?? 0, pid: process.pid })
        } else if (request.cmd === "stop") {
          send({ done: true, success: true })
          socket.end()
          close(0)
          return
        } else {
          const args = parseRunArgs(request.args ?? [], request.cwd ?? REPO_ROOT)
          const summary = await runJest(args.files, args, (text) => send({ out: text }))
          send({ done: true, ...summary })
        }
      } catch (error) {
        send({ out: `[session] ${error.message}\n` })
        send({ done: true, success: false })
      }
      socket.end()
      touch()
    })
  })

  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => close(0))

  // Postgres and the template database, as the tier's global set-up finds or makes them (once for the session).
  await require("../integration-tests/setup/global-setup.js")()
  process.stderr.write("[session] booting the app (first run)\n")
  const boot = await runJest([path.join(REPO_ROOT, "integration-tests/setup/session-boot.spec.js")], {}, () => undefined)
  if (!boot.success) {
    process.stderr.write("[session] the boot failed (above)\n")
    await close(1)
    return
  }
  // The runner of @medusajs/test-utils registers its own SIGINT/SIGTERM handlers (cleanup, exit): the session's close does both.
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.removeAllListeners(signal)
    process.on(signal, () => close(0))
  }
  await new Promise((resolve, reject) => server.listen(sock, resolve).once("error", reject))
  touch()
  const cpu = process.cpuUsage()
  process.stderr.write(`[session] ready on ${sock} after ${(process.uptime()).toFixed(1)} s (${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU): npm run test:attach -- <spec file> [-t <pattern>]   (Ctrl-C to stop)\n`)
}

/** Copies what this process writes to stdout/stderr (Jest's report, the spec's console) to `write` until restored. */
function tee(write) {
  const originals = { out: process.stdout.write, err: process.stderr.write }
  const wrap = (original, stream) => function (chunk, encoding, callback) {
    try { write(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString(typeof encoding === "string" ? encoding : "utf8")) } catch {}
    return original.call(stream, chunk, encoding, callback)
  }
  process.stdout.write = wrap(originals.out, process.stdout)
  process.stderr.write = wrap(originals.err, process.stderr)
  return () => {
    process.stdout.write = originals.out
    process.stderr.write = originals.err
  }
}

/** Whether a session listens on `sock`. */
function answers(sock) {
  return new Promise((resolve) => {
    const socket = net.connect(sock)
    socket.once("connect", () => { socket.destroy(); resolve(true) })
    socket.once("error", () => resolve(false))
  })
}

module.exports = { socketPath }

if (require.main === module) {
  main().catch((error) => {
    console.error(error)
    process.exit(1)
  })
}

/**
 * Jest's test runner (jest-circus) for a test session (scripts/test-session.js): every run of the session executes its
 * spec file in the SAME vm context and module registry as the first run, so the Medusa app booted by the first run
 * (integration-tests/setup/session-attach.js) stays usable by the specs of later runs — one realm (no cross-realm
 * Array/Date/Error), one copy of @medusajs/framework, getContainer() the live container.
 *
 * Jest makes a fresh environment and runtime for every test file and tears them down after it. Here the first run's
 * pair is kept (its teardown is deferred to closeSession()) and later runs hand it to jest-circus instead of their own:
 * before each run the spec files, the session's setup file and jest-circus itself (its state: describe blocks, hooks,
 * expect) are evicted from that registry so they load afresh; everything else (the app, Medusa, src/) stays loaded.
 * Plain JS: Jest loads it in its own process (the session's), once.
 */
const { Console } = require("node:console")
const fs = require("node:fs")
const path = require("node:path")
const jestAdapter = require("jest-circus/runner")

const REPO_ROOT = path.join(__dirname, "..", "..")
const SESSION_KEY = "__PNE_TEST_SESSION__"

/** @type {{ environment: any, runtime: any, teardown: { environment: Function, runtime: Function }, bootedAt: number, run: number } | undefined} */
let kept

async function sessionRunner(globalConfig, config, environment, runtime, testPath, sendMessageToJest) {
  if (!kept) {
    kept = {
      environment,
      runtime,
      teardown: { environment: environment.teardown.bind(environment), runtime: runtime.teardown.bind(runtime) },
      bootedAt: Date.now(),
      run: 0,
    }
    // runTest tears the pair down after this file; the session keeps it until closeSession().
    environment.teardown = async () => undefined
    runtime.teardown = () => undefined
  } else {
    // The kept global's console stays the first run's object (the app's logger bound its methods at the boot); what
    // it prints goes to this run's console, so it lands in this run's report.
    pointConsole(kept, environment.global.console)
    const fresh = [...config.setupFilesAfterEnv, testPath]
    freshLoad(kept.runtime, fresh)
    warnIfStale(kept, fresh)
  }
  // jest.setTimeout() of an earlier spec must not carry over.
  delete kept.environment.global[Symbol.for("TEST_TIMEOUT_SYMBOL")]
  try {
    return await jestAdapter(globalConfig, config, kept.environment, kept.runtime, testPath, sendMessageToJest)
  } finally {
    // Between runs what the app logs (its jobs) goes to the session's stderr. After Jest froze this run's console
    // (right after this returns, which for the first run is the kept console itself): hence setImmediate.
    const run = ++kept.run
    setImmediate(() => {
      if (kept && kept.run === run) pointConsole(kept, IDLE_CONSOLE)
    })
  }
}

const IDLE_CONSOLE = new Console({ stdout: process.stderr, stderr: process.stderr })

/** Sends what the kept console prints (Jest's consoles print through _log, and _logError in verbose mode) to `target`. */
function pointConsole(state, target) {
  const keptConsole = state.environment.global.console
  const print = (type, message) => (typeof target._log === "function" ? target._log(type, message) : target.log(message))
  keptConsole._log = print
  if (typeof keptConsole._logError === "function") keptConsole._logError = (type, message) => (typeof target._logError === "function" ? target._logError(type, message) : target.error(message))
}

/** Drops `files` and jest-circus's modules from the kept registry, so they are read, transformed and run again. */
function freshLoad(runtime, files) {
  for (const file of files) {
    runtime._moduleRegistry.delete(file)
    // Both of the runtime's file caches (the transform's own cache is keyed by the file's mtime).
    runtime._cacheFS.delete(file)
    runtime._cacheFSBuffer.delete(file)
  }
  // jest-circus, expect and the snapshot state: a fresh describe tree and fresh globals for this run.
  runtime._internalModuleRegistry.clear()
}

/** Loaded source files (other than this run's) changed since the session started: they still run as first loaded. */
function warnIfStale(state, fresh) {
  const stale = []
  for (const file of state.runtime._moduleRegistry.keys()) {
    if (fresh.includes(file) || !file.startsWith(REPO_ROOT) || file.includes(`${path.sep}node_modules${path.sep}`)) continue
    try {
      if (fs.statSync(file).mtimeMs > state.bootedAt) stale.push(path.relative(REPO_ROOT, file))
    } catch {
      stale.push(path.relative(REPO_ROOT, file))
    }
  }
  if (stale.length) {
    process.stderr.write(`[session] changed since the app booted (the app and the session still run the old code; restart the session to load them): ${stale.slice(0, 8).join(", ")}${stale.length > 8 ? ` and ${stale.length - 8} more` : ""}\n`)
  }
}

/** The session's state inside the kept context (session-attach.js), or undefined before the first run. */
function sessionState() {
  return kept?.environment.global[SESSION_KEY]
}

/** Stops the app (session-attach.js's close: the runner's cleanup, the sandbox, the databases), then the kept pair. */
async function closeSession() {
  if (!kept) return
  const state = kept
  kept = undefined
  try {
    await state.environment.global[SESSION_KEY]?.close()
  } finally {
    state.teardown.runtime()
    await state.teardown.environment()
  }
}

module.exports = sessionRunner
module.exports.sessionState = sessionState
module.exports.closeSession = closeSession

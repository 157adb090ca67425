/**
 * A test session's set-up file (scripts/test-session.js; setupFilesAfterEnv of its runs, loaded afresh before every
 * spec file by session-runner.js): the session's one Medusa app, booted by the first run and attached to by every
 * later one, as an app group's members attach to the group's app (integration-tests/helpers/app-group.ts).
 *
 * The app is made by the same calls a group makes — useSandbox() (or useV4Registration() with PNE_TEST_SESSION_V4=1)
 * and medusaIntegrationTestRunner() on a clone of the template database — with their Jest hooks collected instead of
 * registered, so that the boot belongs to the session, not to one file: it runs in the first run's beforeAll, and the
 * cleanup (app shutdown, sandbox, databases) when the session closes. Every run registers the runner's per-test hooks
 * (restore the spec's snapshot before each test, wait for workflows after it) and marks the session as the group the
 * spec file's useSandbox()/medusaIntegrationTestRunner() attach to: the file runs unchanged, from the database as the
 * boot left it and a reset sandbox, like a group member.
 */
const { performance } = require("node:perf_hooks")

const SESSION_KEY = "__PNE_TEST_SESSION__"
const GROUP_KEY = "__PNE_APP_GROUP__"

const session = (globalThis[SESSION_KEY] ??= createSession())
session.runs += 1

beforeAll(() => session.boot())
beforeEach(() => session.each("beforeEach"))
afterEach(() => session.each("afterEach"))
globalThis[GROUP_KEY] = session.group

function createSession() {
  const { medusaIntegrationTestRunner } = require("@medusajs/test-utils") // test-utils-from-template.js (jest.config.js)
  const { useSandbox } = require("../helpers/sandbox")
  const { useV4Registration } = require("../helpers/v4-registration")
  const { dropDatabase } = require("../helpers/app-group")
  const { TEST_APP_DIR } = require("../helpers/paths")
  const v4 = process.env.PNE_TEST_SESSION_V4 === "1"

  let options
  const { hooks, value: sandbox } = collectHooks(() => {
    const accessor = v4 ? useV4Registration() : useSandbox()
    medusaIntegrationTestRunner({ cwd: TEST_APP_DIR, testSuite: (o) => (options = o) })
    return accessor
  })
  const group = { sandbox, v4, options, pristine: undefined }
  let booting

  const state = {
    group,
    boots: 0,
    runs: 0,
    /** Boots the app once (the first run's beforeAll); later runs find it booted. */
    boot() {
      booting ??= (async () => {
        require("./setup-env") // what a spec file's environment gets first: telemetry off, log level
        const wall = performance.now()
        const cpu = process.cpuUsage()
        for (const hook of hooks.beforeAll) await hook()
        // The database as the boot left it: each spec file run starts from a copy of it (app-group.ts).
        group.pristine = `${options.dbConfig.dbName}-pristine`
        await options.dbUtils.snapshot({ templateName: group.pristine })
        // The runner's own snapshot too (a spec file attaching replaces it with its own): a run whose spec file calls
        // no runner still restores before each test to a database that exists.
        await options.dbUtils.snapshot()
        state.boots += 1
        const used = process.cpuUsage(cpu)
        process.stderr.write(`[session] app booted in ${((performance.now() - wall) / 1000).toFixed(1)} s (${((used.user + used.system) / 1e6).toFixed(1)} s CPU), database ${options.dbConfig.dbName}\n`)
      })()
      return booting
    },
    each(kind) {
      return hooks[kind].reduce((previous, hook) => previous.then(() => hook()), Promise.resolve())
    },
    /** The runner's cleanup (app shutdown, its databases), then the sandbox's, then the boot's snapshot. */
    async close() {
      if (!booting) return
      await booting.catch(() => undefined)
      for (const hook of [...hooks.afterAll].reverse()) await hook()
      if (group.pristine) await dropDatabase(group.pristine)
    },
  }
  return state
}

/** Runs `make` with Jest's hook functions replaced by collectors (describe bodies run inline), and returns the hooks. */
function collectHooks(make) {
  const hooks = { beforeAll: [], beforeEach: [], afterEach: [], afterAll: [] }
  const names = ["describe", ...Object.keys(hooks)]
  const saved = Object.fromEntries(names.map((name) => [name, globalThis[name]]))
  globalThis.describe = (_name, body) => body()
  for (const kind of Object.keys(hooks)) globalThis[kind] = (fn) => hooks[kind].push(fn)
  try {
    return { hooks, value: make() }
  } finally {
    Object.assign(globalThis, saved)
  }
}

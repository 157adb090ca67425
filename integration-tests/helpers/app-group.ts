/**
 * One booted Medusa app for a group of spec files (integration-tests/groups/*.spec.ts): an app boot costs tens of
 * seconds of CPU (module loading, link sync, the HTTP app), which a spec file of a few tests used to pay for itself.
 *
 *   runSpecFilesOnOneApp(["integration-tests/http/smoke", "integration-tests/http/reply-checks"])   (from the repo root)
 *
 * The group boots once (medusaIntegrationTestRunner on a clone of the template database, one sandbox with the default
 * options, one app port) and loads each member file inside a describe named after it, unchanged: the member's calls
 * to useSandbox(), useBackendPort() and medusaIntegrationTestRunner() see the group (groupMember() below) and attach
 * to it instead of starting their own. Each member file starts from the state it would have alone:
 *   - the database is restored to the group's snapshot taken right after the boot (as freshly booted), before the
 *     member's own beforeAll seeds; that seeded state is the snapshot its tests are restored to, as the runner does;
 *   - the sandbox is reset (transactions, callbacks, counters, faults, timers);
 *   - the workflows the previous member started have finished (the runner waits after every test).
 * A member must use the sandbox's default options (or, in a v4 group, useV4Registration()) and no runner options
 * (hooks, env, dbName): otherwise it says so and fails, and it belongs outside a group (it runs alone, as before).
 */
import path from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { useSandbox } from "./sandbox"
import { useV4Registration } from "./v4-registration"
import { REPO_ROOT, TEST_APP_DIR } from "./paths"

type RunnerOptions = Parameters<typeof medusaIntegrationTestRunner>[0]
type SuiteOptions = Parameters<RunnerOptions["testSuite"]>[0]

interface AppGroup {
  sandbox: ReturnType<typeof useSandbox>
  /** The app has the v4 registration (useV4Registration): its members may ask for it. */
  v4: boolean
  /** Set while the member files are being loaded (inside the group runner's testSuite). */
  options?: SuiteOptions
  pristine?: string
}

const KEY = "__PNE_APP_GROUP__"

/** The group a spec file is being loaded into, if any (the harness's hooks attach to it). */
export function groupMember(): AppGroup | undefined {
  const group = (globalThis as any)[KEY] as AppGroup | undefined
  return group?.options ? group : undefined
}

/**
 * Boots one app and runs every spec file in `files` (paths from the repository root, without `.spec.ts`) on it.
 * `v4`: the app and sandbox get the v4 registration (v4-registration.ts), for members that call useV4Registration().
 */
export function runSpecFilesOnOneApp(files: string[], { v4 = false } = {}) {
  const sandbox = v4 ? useV4Registration() : useSandbox()
  const group: AppGroup = { sandbox, v4 }
  ;(globalThis as any)[KEY] = group
  medusaIntegrationTestRunner({
    cwd: TEST_APP_DIR,
    testSuite: (options) => {
      group.options = options
      group.pristine = undefined
      beforeAll(async () => {
        // The database as the boot left it: each member file starts from a copy of it.
        group.pristine = `${options.dbConfig.dbName}-pristine`
        await options.dbUtils.snapshot({ templateName: group.pristine })
      })
      afterAll(async () => {
        if (group.pristine) await dropDatabase(group.pristine)
      })
      // jest.setTimeout() sets one default for the whole file (the last call wins): every member gets the longest.
      const timeouts: number[] = []
      for (const file of files) {
        describe(`${path.basename(file)}.spec.ts`, () => {
          require(path.join(REPO_ROOT, `${file}.spec.ts`))
          timeouts.push((globalThis as any)[Symbol.for("TEST_TIMEOUT_SYMBOL")] ?? 0)
        })
      }
      if (Math.max(...timeouts) > 0) jest.setTimeout(Math.max(...timeouts))
      group.options = undefined
    },
  })
}

/**
 * What a member file's medusaIntegrationTestRunner() does inside a group: start from the group's fresh database and
 * reset sandbox, run the member's suite with the group's api/container, and make the state after the member's own
 * beforeAll the one its tests are restored to (the runner's per-test restore, unchanged).
 */
export function attachToGroup(group: AppGroup, options: RunnerOptions) {
  const extra = Object.keys(options).filter((k) => !["cwd", "testSuite"].includes(k))
  if (extra.length || (options.cwd && path.resolve(options.cwd) !== TEST_APP_DIR)) {
    throw new Error(`a spec file in an app group cannot set the runner's ${extra.join(", ") || "cwd"}: run it as its own file (integration-tests/setup/app-groups.js)`)
  }
  const shared = group.options!
  return describe("", () => {
    beforeAll(async () => {
      await shared.utils.waitWorkflowExecutions()
      await shared.dbUtils.restore({ templateName: group.pristine! })
      group.sandbox().control.reset()
    })
    options.testSuite(shared)
    // After the member's own beforeAll (registered above, so it ran first): its tests start from this state.
    beforeAll(async () => {
      await shared.dbUtils.snapshot()
    })
  })
}

export async function dropDatabase(name: string) {
  const { Client } = require("pg")
  const client = new Client({
    host: process.env.DB_HOST || "localhost",
    port: Number(process.env.DB_PORT || 5432),
    user: process.env.DB_USERNAME || "postgres",
    password: process.env.DB_PASSWORD || undefined,
    database: process.env.DB_WAITINGROOM_DATABASE || "postgres",
  })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`)
  } finally {
    await client.end()
  }
}

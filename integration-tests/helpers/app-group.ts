/**
 * One booted Medusa app for a group of spec files (integration-tests/groups/*.spec.ts): an app boot costs tens of
 * seconds of CPU (module loading, link sync, the HTTP app), which a spec file of a few tests used to pay for itself.
 *
 *   runSpecFilesOnOneApp(["../http/smoke.spec", "../http/reply-checks.spec"])
 *
 * The group boots once (medusaIntegrationTestRunner on a clone of the template database, one sandbox with the default
 * options, one app port) and loads each member file inside a describe named after it, unchanged: the member's calls
 * to useSandbox(), useBackendPort() and medusaIntegrationTestRunner() see the group (groupMember() below) and attach
 * to it instead of starting their own. Each member file starts from the state it would have alone:
 *   - the database is restored to the group's snapshot taken right after the boot (as freshly booted), before the
 *     member's own beforeAll seeds; that seeded state is the snapshot its tests are restored to, as the runner does;
 *   - the sandbox is reset (transactions, callbacks, counters, faults, timers);
 *   - the workflows the previous member started have finished (the runner waits after every test).
 * A member must use the sandbox's default options and no runner options (hooks, env, dbName): otherwise it says so and
 * fails, and it belongs outside a group (it runs as its own file, as before).
 */
import path from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { useSandbox } from "./sandbox"
import { TEST_APP_DIR } from "./paths"

type RunnerOptions = Parameters<typeof medusaIntegrationTestRunner>[0]
type SuiteOptions = Parameters<RunnerOptions["testSuite"]>[0]

interface AppGroup {
  sandbox: ReturnType<typeof useSandbox>
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

/** Boots one app and runs every file in `files` (paths relative to the caller, as for require) on it. */
export function runSpecFilesOnOneApp(dir: string, files: string[]) {
  const sandbox = useSandbox()
  const group: AppGroup = { sandbox }
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
      for (const file of files) {
        describe(path.basename(file), () => {
          require(path.resolve(dir, file))
        })
      }
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

async function dropDatabase(name: string) {
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

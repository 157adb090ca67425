/**
 * `useSandbox()` — call at the top level of an integration spec, BEFORE `medusaIntegrationTestRunner(...)`:
 *
 *   const sandbox = useSandbox()
 *   medusaIntegrationTestRunner({ cwd: TEST_APP_DIR, testSuite: ({ api, getContainer }) => {
 *     it("...", async () => { sandbox().control ... })
 *   }})
 *
 * It registers (top-level hooks run before the runner's nested ones):
 * - beforeAll: reserve the test app's port (useBackendPort: PORT + PAYNETEASY_TEST_BACKEND_URL), start the gateway
 *   sandbox on a free port with the default merchant, and export PAYNETEASY_SANDBOX_URL for medusa-config;
 * - afterAll: close the sandbox and restore the env.
 * The returned accessor gives the running Sandbox (url, origin, control API); it throws if called before beforeAll.
 * In a spec file loaded into an app group (app-group.ts) it registers nothing and returns the group's sandbox.
 */
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { useBackendPort } from "./backend-url"
import { groupMember } from "./app-group"
import { SANDBOX_URL_ENV } from "./provider-options"

export type SandboxOptions = Omit<NonNullable<Parameters<typeof startSandbox>[0]>, "port" | "host">

export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
  // In an app group (app-group.ts) the group's sandbox serves every member file, reset before each.
  const group = groupMember()
  if (group) {
    if (Object.keys(options).length) throw new Error(`a spec file in an app group shares the group's sandbox (default options), not ${JSON.stringify(options)}: run it as its own file`)
    return group.sandbox
  }
  useBackendPort()
  let sandbox: Sandbox | undefined
  const previous = process.env[SANDBOX_URL_ENV]
  beforeAll(async () => {
    sandbox = await startSandbox({ processingMs: 50, callbackDelayMs: 20, ...options, port: 0, host: "127.0.0.1" })
    process.env[SANDBOX_URL_ENV] = sandbox.url
  })
  afterAll(async () => {
    await sandbox?.close()
    sandbox = undefined
    if (previous === undefined) {
      delete process.env[SANDBOX_URL_ENV]
    } else {
      process.env[SANDBOX_URL_ENV] = previous
    }
  })
  return () => {
    if (!sandbox) {
      throw new Error("the sandbox is not running: use the accessor inside tests/hooks, after useSandbox()'s beforeAll")
    }
    return sandbox
  }
}

/**
 * Fixed locations the test harness needs. `TEST_APP_DIR` is the directory medusaIntegrationTestRunner is pointed at
 * (`cwd`): it holds `medusa-config.ts`. The runner loads the config from `cwd` AND boots the app from the same directory
 * (`startApp({ cwd: medusaConfigFile ?? cwd })`), and its DB-URL override mutates the object `require` cached for that
 * path — so `cwd` and `medusaConfigFile` must name the same directory, or the app would boot against the wrong database.
 */
import path from "node:path"

export const REPO_ROOT = path.resolve(__dirname, "..", "..")
export const TEST_APP_DIR = path.join(REPO_ROOT, "integration-tests")
export const PROVIDER_SOURCE = path.join(REPO_ROOT, "src", "providers", "payneteasy")

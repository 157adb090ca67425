/**
 * Jest globalSetup for the browser tier: what every spec file would otherwise make or start for itself, made once per
 * run before any spec starts (so parallel workers find it ready and never build the same thing twice):
 *   1. a Postgres (integration-tests/setup/global-setup.js: from the env, localhost:5432 or an embedded one);
 *   2. the plugin build and the app directory that installs it (integration-tests/helpers/built-app.ts);
 *   3. the admin dashboard, built once by Vite and served by every admin spec's app (admin-bundle.ts), and beside it
 *      the migrated database every seeded template is cloned from (built-app.ts, ensureMigratedBase);
 *   4. one Chromium for the run, which every spec file connects to (chromium.ts; global-teardown.ts closes it);
 *   5. the run's id, which names the app databases the spec files clone (run-databases.ts; the teardown drops them).
 * Each step is skipped when its cached result is current, and each prints how long it took.
 */
import type { BrowserServer } from "playwright-core"
import { childEnv, ensureMigratedBase, ensurePluginBuilt, prepareAppDir } from "../../integration-tests/helpers/built-app"
import { ensureAdminBundle } from "./admin-bundle"
import { CHROMIUM_WS_ENV, launchChromiumServer } from "./chromium"
import { newRunId, RUN_ID_ENV } from "./run-databases"

// eslint-disable-next-line @typescript-eslint/no-var-requires
const findPostgres: () => Promise<void> = require("../../integration-tests/setup/global-setup.js")

declare global {
  // eslint-disable-next-line no-var
  var __PNE_CHROMIUM_SERVER__: BrowserServer | undefined
}

export default async function browserGlobalSetup(): Promise<void> {
  const timings: Record<string, number> = {}
  let t = Date.now()
  await findPostgres()
  t = Date.now()
  const buildHash = await ensurePluginBuilt()
  timings["plugin build"] = Date.now() - t
  prepareAppDir(buildHash)
  // The dashboard's build (Vite) and the database migration for the templates need nothing of each other: together.
  t = Date.now()
  const [{ builtMs }, migratedMs] = await Promise.all([
    ensureAdminBundle(buildHash),
    ensureMigratedBase(childEnv()).then(() => Date.now() - t),
  ])
  timings["admin bundle"] = builtMs
  timings["migrated base (beside the bundle)"] = migratedMs
  process.env[RUN_ID_ENV] = newRunId()
  t = Date.now()
  const server = await launchChromiumServer()
  globalThis.__PNE_CHROMIUM_SERVER__ = server
  process.env[CHROMIUM_WS_ENV] = server.wsEndpoint()
  timings["chromium"] = Date.now() - t
  // eslint-disable-next-line no-console
  console.log(`[browser] set-up for the run (ms, 0 = reused): ${JSON.stringify(timings)}`)
}

/**
 * Jest globalTeardown for the browser tier: closes the run's Chromium and drops the run's app databases
 * (global-setup.ts, run-databases.ts), then stops the embedded Postgres if one was started.
 */
import { dropRunClones, RUN_ID_ENV } from "./run-databases"

// eslint-disable-next-line @typescript-eslint/no-var-requires
const stopPostgres: () => Promise<void> = require("../../integration-tests/setup/global-teardown.js")

export default async function browserGlobalTeardown(): Promise<void> {
  const server = globalThis.__PNE_CHROMIUM_SERVER__
  globalThis.__PNE_CHROMIUM_SERVER__ = undefined
  try {
    await server?.close()
    const runId = process.env[RUN_ID_ENV]
    if (runId) await dropRunClones(runId)
  } finally {
    await stopPostgres()
  }
}

/** Jest globalTeardown for the browser tier: closes the run's Chromium (global-setup.ts), then stops the embedded Postgres if one was started. */
// eslint-disable-next-line @typescript-eslint/no-var-requires
const stopPostgres: () => Promise<void> = require("../../integration-tests/setup/global-teardown.js")

export default async function browserGlobalTeardown(): Promise<void> {
  const server = globalThis.__PNE_CHROMIUM_SERVER__
  globalThis.__PNE_CHROMIUM_SERVER__ = undefined
  try {
    await server?.close()
  } finally {
    await stopPostgres()
  }
}

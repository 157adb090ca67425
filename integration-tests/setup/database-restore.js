/**
 * The runner's database snapshot and restore (before every test: the file's database back to the state its beforeAll
 * left), without a DROP DATABASE on the way. Postgres 15 makes every DROP DATABASE wait for two checkpoints, which
 * flush every dirty page of the whole server: measured on the shared 2-core machine, 4-9 s per drop while other test
 * runs write (a CREATE DATABASE … TEMPLATE of the same 19 MB database: 0.4-1.3 s; a rename: 0.1 s). The runner
 * (@medusajs/test-utils 2.21.2) drops before every test, so that wait was most of a short test's time.
 *
 * Here the database being replaced is renamed out of the way (a "trash" database, connections refused), the copy is
 * made under the real name, and the trash is dropped in the background by one connection while the tests go on; when
 * the file ends (the runner's `shutdown`) what is still queued is dropped at once from several connections, so their
 * checkpoint waits overlap. Same states, same order, same names as the runner's own restore. The global teardown drops
 * trash a crashed run left (dropTrash). test-utils-from-template.js installs it (PNE_TEST_FAST_RESTORE=off: the
 * runner's own).
 */
const TRASH_PREFIX = "pne_trash_"
let counter = 0

const { pgSettings } = require("./template-database")
const { snapshotInPlace, restoreInPlace, release } = require("./restore-in-place")

let warned = false
/** An in-place snapshot or restore that failed (a lock held past its timeout…): said once, then the copy is used. */
function warnOnce(e) {
  if (!warned) console.warn(`[restore] in place failed, copying the template instead: ${e && e.message}`)
  warned = true
  return false
}

const ident = (s) => `"${s.replace(/"/g, '""')}"`

/** The waiting-room database, with the connection settings the template module reads from the same env. */
function settings() {
  return { ...pgSettings(), database: process.env.DB_WAITINGROOM_DATABASE || "postgres" }
}

async function connect() {
  const { Client } = require("pg")
  const client = new Client(settings())
  await client.connect()
  client.on("error", () => undefined)
  return client
}

let adminClient
async function admin() {
  if (!adminClient) {
    adminClient = connect().catch((e) => {
      adminClient = undefined
      throw e
    })
  }
  return adminClient
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const busy = (e) => /being accessed by other users/.test(String(e && e.message))

/** Runs `sql` on the admin connection, retrying while sessions of `db` are still going away. */
async function whileClosing(c, db, sql) {
  for (let attempt = 1; ; attempt++) {
    await c.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [db])
    try {
      return await c.query(sql)
    } catch (e) {
      if (!busy(e) || attempt >= 50) throw e
      await sleep(Math.min(20 * attempt, 200))
    }
  }
}

async function exists(c, db) {
  return (await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [db])).rowCount === 1
}

// Trash databases waiting to be dropped, dropped one at a time in the background.
const queue = []
let dropping

function scheduleDrop(name) {
  queue.push(name)
  if (!dropping) dropping = dropQueued()
}

async function dropQueued() {
  let c
  try {
    c = await connect()
    while (queue.length) await c.query(`DROP DATABASE IF EXISTS ${ident(queue.shift())}`).catch(() => undefined)
  } finally {
    dropping = undefined
    await c?.end().catch(() => undefined)
  }
}

/** Drops what is still queued now, several at once (their checkpoint waits overlap), and waits for the rest. */
async function drainDrops() {
  const names = queue.splice(0)
  const lanes = Math.min(4, names.length)
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      const c = await connect()
      try {
        for (let name; (name = names.shift()); ) await c.query(`DROP DATABASE IF EXISTS ${ident(name)}`).catch(() => undefined)
      } finally {
        await c.end().catch(() => undefined)
      }
    })
  )
  await dropping
}

/** Moves `db` out of the way (connections refused, renamed to a trash name) and queues its drop. */
async function moveAside(c, db) {
  if (!(await exists(c, db))) return
  const trash = `${TRASH_PREFIX}${process.pid}_${++counter}_${Date.now().toString(36)}`
  await c.query(`ALTER DATABASE ${ident(db)} WITH ALLOW_CONNECTIONS false`)
  await whileClosing(c, db, `ALTER DATABASE ${ident(db)} RENAME TO ${ident(trash)}`)
  scheduleDrop(trash)
}

/**
 * The app's reconciliation ticks (src/jobs: payments and payouts every 3 s, recurring charges every minute) write on
 * their own clock. A tick that read a test's rows before the restore and wrote after it left that write in the next
 * test's starting state (a watch row in payneteasy_reconciliation, one whole run in five, 2026-11-28). So the restore
 * holds the ticks' locks (Medusa's locking module, as a tick on another instance would): it waits for a tick in
 * flight, and a tick due meanwhile finds its lock taken and skips, as it does when another instance is ticking.
 * The container is the app's (set by test-utils-from-template.js when the runner boots it); without one, no wait.
 */
let appContainer
function holdTicksDuringRestore(container) {
  appContainer = container
}

async function withTicksHeld(work) {
  const locking = appContainer?.hasRegistration?.("locking") ? appContainer.resolve("locking") : undefined
  if (!locking) return work()
  // TypeScript sources, loaded through the test's module registry (the lock names are written once, by each tick)
  const locks = [
    require("../../src/workflows/payneteasy/reconcile").TICK_LOCK,
    require("../../src/core/payouts/reconcile-payouts").PAYOUT_TICK_LOCK,
    require("../../src/core/recurring/reconcile-charges").RECURRING_TICK_LOCK,
  ]
  // a tick's lock expires after 2 minutes (src/core/locks/tick-lock.ts): no tick holds it longer
  return locking.execute(locks, work, { timeout: 150 })
}

async function restore(args) {
  return withTicksHeld(() => restoreUnlocked(args))
}

async function restoreUnlocked({ databaseName, templateName }) {
  if (databaseName === templateName) throw new Error("Template database name must differ from target database")
  // The tables the test wrote, put back in place (restore-in-place.js); a copy of the template when that cannot vouch.
  if (await restoreInPlace(databaseName, templateName).catch(warnOnce)) return
  await release(databaseName)
  const c = await admin()
  await moveAside(c, databaseName)
  await whileClosing(c, templateName, `CREATE DATABASE ${ident(databaseName)} WITH TEMPLATE ${ident(templateName)}`)
}

async function snapshot({ databaseName, templateName }) {
  if (databaseName === templateName) throw new Error("Template database name must differ from source database")
  await snapshotInPlace(databaseName, templateName).catch(warnOnce)
  await release(databaseName)
  const c = await admin()
  await moveAside(c, templateName)
  await c.query(`ALTER DATABASE ${ident(databaseName)} WITH ALLOW_CONNECTIONS false`)
  try {
    await whileClosing(c, databaseName, `CREATE DATABASE ${ident(templateName)} WITH TEMPLATE ${ident(databaseName)}`)
  } finally {
    await c.query(`ALTER DATABASE ${ident(databaseName)} WITH ALLOW_CONNECTIONS true`)
  }
}

/**
 * Wraps the runner's database helpers (database.js's dbTestUtilFactory, looked up by the runner when it is built):
 * snapshot, restore and dropTemplate as above; shutdown closes the runner's connection as before, then moves the
 * database aside and drops everything queued.
 */
function installFastRestore(databaseModule) {
  if (process.env.PNE_TEST_FAST_RESTORE === "off" || databaseModule.__pneFastRestore) return
  const original = databaseModule.dbTestUtilFactory
  databaseModule.dbTestUtilFactory = () => {
    const utils = original()
    const shutdown = utils.shutdown
    return Object.assign(utils, {
      snapshot,
      restore,
      dropTemplate: async (templateName) => moveAside(await admin(), templateName),
      shutdown: async function (dbName) {
        // The runner's shutdown closes its connection and drops a database of the given name: none by this name.
        await shutdown.call(this, `${TRASH_PREFIX}none`)
        await release(dbName)
        try {
          await moveAside(await admin(), dbName)
        } finally {
          await drainDrops()
          const c = adminClient
          adminClient = undefined
          await (await c?.catch(() => undefined))?.end().catch(() => undefined)
        }
      },
    })
  }
  databaseModule.__pneFastRestore = true
}

/** Drops every trash database (a run that crashed left them; none is ever connected to). For the global teardown. */
async function dropTrash() {
  const c = await connect()
  try {
    const { rows } = await c.query("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${TRASH_PREFIX}%`])
    queue.push(...rows.map((r) => r.datname))
    await drainDrops()
  } finally {
    await c.end().catch(() => undefined)
  }
}

module.exports = { installFastRestore, holdTicksDuringRestore, dropTrash, TRASH_PREFIX }

/**
 * The runner's restore between tests, done in place (integration-tests/setup/restore-in-place.js, issue 38): after a
 * test that writes through the app, the HTTP API and plain SQL, the next test starts from a database equal to the
 * snapshot's template copy (the copy the runner itself would restore from), table by table and sequence by sequence,
 * and it is the same database (no copy was made).
 */
import { Client } from "pg"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { setTimeout as sleep } from "node:timers/promises"
import { TICK_LOCK } from "../../src/workflows/payneteasy/reconcile"
import { TEST_APP_DIR } from "../helpers/paths"
import { useSandbox } from "../helpers/sandbox"
import { PROVIDER_IDS } from "../helpers/provider-options"
import { checkoutToPaymentSession, seedStore, type StoreFixture } from "../helpers/store"

useSandbox()

/** Every public table's rows (as text, sorted) and every sequence's state, hashed per table: what "equal" means. */
async function fingerprint(database: string): Promise<Record<string, string>> {
  const pg = new Client({
    host: process.env.DB_HOST || "localhost",
    port: Number(process.env.DB_PORT || 5432),
    user: process.env.DB_USERNAME || "postgres",
    password: process.env.DB_PASSWORD || undefined,
    database,
  })
  await pg.connect()
  try {
    const { rows: tables } = await pg.query(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
    )
    const out: Record<string, string> = {}
    for (const { tablename } of tables) {
      const q = `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h FROM public."${tablename}" t`
      const { rows } = await pg.query(q)
      out[tablename] = `${rows[0].n}:${rows[0].h}`
    }
    const { rows: seqs } = await pg.query(
      "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public' ORDER BY sequencename"
    )
    for (const s of seqs) out[`sequence ${s.sequencename}`] = String(s.last_value)
    return out
  } finally {
    await pg.end()
  }
}

const differences = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys({ ...a, ...b }).filter((k) => a[k] !== b[k]).sort()

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer, dbConfig, dbUtils }) => {
    let store: StoreFixture
    let oid: number
    const template = () => `${dbConfig.dbName}-template`
    const databaseOid = async () => {
      const pg = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
      const { rows } = await pg.raw("SELECT oid::int AS oid FROM pg_database WHERE datname = current_database()")
      return rows[0].oid as number
    }

    beforeAll(async () => {
      store = await seedStore(getContainer())
    })

    it("a test writes: a checkout through the API, an update, a delete and a sequence step in SQL (the fingerprint sees it)", async () => {
      oid = await databaseOid()
      await checkoutToPaymentSession(api, store, PROVIDER_IDS.hosted)
      const pg = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
      await pg.raw("UPDATE store SET name = 'changed by the test'")
      await pg.raw("DELETE FROM currency WHERE code = 'zwl'")
      await pg.raw(`SELECT nextval(pg_get_serial_sequence('"order"', 'display_id'))`)
      const changed = differences(await fingerprint(dbConfig.dbName), await fingerprint(template()))
      expect(changed).toEqual(expect.arrayContaining(["cart", "payment_session", "store", "currency", "sequence order_display_id_seq"]))
    })

    it("the next test starts from the snapshot: every table and sequence equal to the template copy, in the same database", async () => {
      expect(differences(await fingerprint(dbConfig.dbName), await fingerprint(template()))).toEqual([])
      expect(await databaseOid()).toBe(oid)
    })

    it("and again after a second round of writes (the restore repeats)", async () => {
      await checkoutToPaymentSession(api, store, PROVIDER_IDS.direct)
      expect(differences(await fingerprint(dbConfig.dbName), await fingerprint(template()))).not.toEqual([])
    })

    it("equal again", async () => {
      expect(differences(await fingerprint(dbConfig.dbName), await fingerprint(template()))).toEqual([])
      expect(await databaseOid()).toBe(oid)
    })

    // The app's reconciliation ticks (src/jobs, every 3 s) write on their own clock: a tick that read a test's rows
    // before the restore and wrote after it left a watch row in the next test's state (payneteasy_reconciliation, one
    // whole run in five, 2026-11-28). Here a tick is in flight (it holds its lock, as every tick does) while the runner
    // restores, and writes late; the restore must wait for it, so the write is undone with the rest.
    it("a restore waits for a reconciliation tick in flight: the tick's late write is undone too", async () => {
      const container = getContainer()
      const locking = container.resolve(Modules.LOCKING)
      const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
      await pg.raw("UPDATE store SET name = 'changed by the test'")
      const tick = { ownerId: "a reconciliation tick in flight", expire: 60 }
      await locking.acquire(TICK_LOCK, tick)
      let restored = false
      const restoring = dbUtils.restore().then(() => {
        restored = true
      })
      try {
        await sleep(500)
        expect(restored).toBe(false)
        await pg.raw("UPDATE store SET name = 'written late by the tick'")
      } finally {
        await locking.release(TICK_LOCK, { ownerId: tick.ownerId })
        await restoring
      }
      expect(differences(await fingerprint(dbConfig.dbName), await fingerprint(template()))).toEqual([])
    })
  },
})

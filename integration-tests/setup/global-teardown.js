/**
 * Jest globalTeardown for the integration project: drop the trash databases a crashed run left (database-restore.js),
 * then stop the embedded Postgres if global-setup.js started one.
 */
const fs = require("node:fs")
const { dropTrash } = require("./database-restore")
const { appTiersOf } = require("./app-tiers")

module.exports = async function globalTeardown() {
  if (appTiersOf(process.env.TEST_TYPE).length) await dropTrash().catch(() => undefined)
  const embedded = globalThis.__PAYNETEASY_EMBEDDED_PG__
  if (!embedded) return
  globalThis.__PAYNETEASY_EMBEDDED_PG__ = undefined
  try {
    await embedded.pg.stop()
  } finally {
    fs.rmSync(embedded.databaseDir, { recursive: true, force: true })
  }
}

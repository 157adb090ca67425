/** Jest globalTeardown for the integration project: stop the embedded Postgres if global-setup.js started one. */
const fs = require("node:fs")

module.exports = async function globalTeardown() {
  const embedded = globalThis.__PAYNETEASY_EMBEDDED_PG__
  if (!embedded) return
  globalThis.__PAYNETEASY_EMBEDDED_PG__ = undefined
  try {
    await embedded.pg.stop()
  } finally {
    fs.rmSync(embedded.databaseDir, { recursive: true, force: true })
  }
}

/**
 * `@medusajs/test-utils` as the integration and reliability specs import it (jest.config.js maps the package name
 * here): everything re-exported unchanged, except that medusaIntegrationTestRunner first clones the migrated template
 * database global-setup.js made (template-database.js) into the suite's own database, so the runner's migrations and
 * link sync find nothing to do. A spec keeps calling the runner exactly as before; one that names its own `dbName`, or
 * a run without PNE_TEST_DB_TEMPLATE (or with it "off"), gets the runner untouched. A spec file loaded into an app
 * group (integration-tests/helpers/app-group.ts) gets no runner of its own: it attaches to the group's booted app.
 * Every runner restores its database between tests without dropping it first (database-restore.js).
 */
const path = require("node:path")
const { ulid } = require("ulid")
const { cloneTestTemplate } = require("./template-database")
const { installFastRestore, holdTicksDuringRestore } = require("./database-restore")

// The real package, by path: the package name itself is mapped to this file.
const real = require(path.join(__dirname, "..", "..", "node_modules", "@medusajs", "test-utils", "dist", "index.js"))
// The runner's per-test database restore without a DROP DATABASE (and its checkpoints) on the way: database-restore.js.
installFastRestore(require(path.join(__dirname, "..", "..", "node_modules", "@medusajs", "test-utils", "dist", "database.js")))

/**
 * The clone already holds every module's migrations: the runner's next `runModulesMigrations()` (one MikroORM per
 * module asking for pending migrations, seconds of CPU per boot) is skipped once. Not when the app is given Redis
 * modules (PNE_TEST_REDIS_URL), whose tables the template was not made with; the link sync still runs either way.
 */
function skipNextModuleMigrations() {
  if (process.env.PNE_TEST_REDIS_URL) return
  const { MedusaAppLoader } = require("@medusajs/framework")
  const proto = MedusaAppLoader.prototype
  const original = proto.runModulesMigrations
  proto.runModulesMigrations = async function skippedOnce() {
    proto.runModulesMigrations = original
  }
}

/** The runner's options with the app's container handed to the restore (database-restore.js: ticks held). */
function withContainerForRestore(options) {
  return {
    ...options,
    hooks: {
      ...options.hooks,
      beforeServerStart: async (container) => {
        holdTicksDuringRestore(container)
        await options.hooks?.beforeServerStart?.(container)
      },
    },
  }
}

function medusaIntegrationTestRunner(given) {
  // A spec file loaded into an app group (integration-tests/groups/) runs on the group's booted app.
  const { groupMember, attachToGroup } = require("../helpers/app-group")
  const group = groupMember()
  if (group) return attachToGroup(group, given)
  const options = withContainerForRestore(given)
  const template = process.env.PNE_TEST_DB_TEMPLATE
  if (!template || template === "off" || options.dbName) return real.medusaIntegrationTestRunner(options)
  // The runner's own naming (medusa-<id>-integration-<worker>), with a name it can be told before it creates it.
  const dbName = `medusa-${ulid().toLowerCase()}-integration-${process.env.JEST_WORKER_ID || "1"}`
  const hooks = {
    ...options.hooks,
    // Runs before the runner creates (CREATE DATABASE, a no-op once it exists) and migrates its database.
    beforeServerStart: async (container) => {
      await cloneTestTemplate(template, dbName)
      skipNextModuleMigrations()
      await options.hooks?.beforeServerStart?.(container)
    },
  }
  return real.medusaIntegrationTestRunner({ ...options, dbName, hooks })
}

module.exports = { ...real, medusaIntegrationTestRunner }

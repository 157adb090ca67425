/**
 * The tiers whose spec files boot Medusa inside Jest (medusaIntegrationTestRunner on a clone of the template database):
 * what each runs, and which TEST_TYPE values name them. `integration+reliability` runs both tiers as one Jest run
 * (`npm test`: scripts/test-tiers.js), so that one tier's waiting files (step retries, delays) overlap the other's
 * busy ones. Read by jest.config.js, global-setup.js and global-teardown.js.
 */
const APP_TIERS = {
  // The spec files, and the app groups that run several of them on one booted app (app-groups.js).
  "integration:http": ["**/integration-tests/http/**/*.spec.[jt]s", "**/integration-tests/groups/*.spec.[jt]s"],
  // Fault trials, storms, races, fuzzing, secret scans, auth sweep: the same harness at volume.
  reliability: ["**/reliability-tests/**/*.spec.[jt]s"],
  // How the plugin is deployed: installed from its packed tarball into a fresh Medusa app, and run as a server and a
  // worker sharing Medusa's Redis modules. About 10 of `npm test`'s CPU minutes on 2 cores, so CI runs them as their
  // own step (`npm run test:deployment`, .ci/run) and npm test keeps to its 15 minutes.
  deployment: ["**/integration-tests/http/packaging.spec.[jt]s", "**/reliability-tests/two-instances.spec.[jt]s"],
}
/** The deployment tier's files, which the tiers whose globs also match them leave out. */
const DEPLOYMENT_FILES = ["integration-tests/http/packaging.spec.ts", "reliability-tests/two-instances.spec.ts"]

/** The app tiers a TEST_TYPE names ([] for the unit, contract and browser tiers). */
function appTiersOf(type) {
  if (type === "integration+reliability") return ["integration:http", "reliability"]
  return APP_TIERS[type] ? [type] : []
}

module.exports = { APP_TIERS, DEPLOYMENT_FILES, appTiersOf }

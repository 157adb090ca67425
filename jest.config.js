// Unit tests: src/**/__tests__/*.unit.spec.ts, bench/ and docs/ likewise (TEST_TYPE=unit).
// Browser tests: browser-tests/**/*.spec.ts (TEST_TYPE=browser) — need /usr/bin/chromium (apt-get install chromium).
// Reliability tests: reliability-tests/**/*.spec.ts (TEST_TYPE=reliability) — same harness as integration.
// Starter test: storefront-tests/*.spec.ts (TEST_TYPE=starter, `npm run test:starter`): a Next.js storefront, not in npm test.
// Integration tests: integration-tests/http/*.spec.ts (TEST_TYPE=integration:http) — a real Medusa app + Postgres;
// integration-tests/setup/global-setup.js finds a Postgres (env, localhost:5432) or starts an embedded one.
module.exports = {
  transform: {
    "^.+\\.[jt]sx?$": [
      "@swc/jest",
      // the automatic JSX runtime, as tsconfig's "jsx": "react-jsx" (the storefront kit's React render tests)
      { jsc: { parser: { syntax: "typescript", decorators: true, tsx: true }, target: "es2021", transform: { react: { runtime: "automatic" } } } },
    ],
  },
  testEnvironment: "node",
  moduleFileExtensions: ["js", "ts", "tsx", "json"],
  // storefront-tests/next-app is a Next.js app with its own node_modules and build (npm run test:starter)
  modulePathIgnorePatterns: ["dist/", "<rootDir>/.medusa/", "<rootDir>/storefront-tests/next-app/"],
  testTimeout: 60000,
  // The default report, then a digest of what failed as the run's last lines (CI shows a log's tail).
  reporters: ["default", "<rootDir>/integration-tests/setup/failure-digest-reporter.js"],
  // Jest's module loader with V8's code cache kept per worker: a module loaded by several test files compiles once.
  runtime: "<rootDir>/integration-tests/setup/code-cache-runtime.js",
}
const type = process.env.TEST_TYPE
// The unit spec files (the contract tier's among them; see "Unit vs contract" below).
const unitMatch = [
  "**/src/**/__tests__/**/*.unit.spec.[jt]s",
  "**/bench/**/__tests__/**/*.unit.spec.[jt]s",
  // README.md and docs/: length, links and anchors, the options table (docs/__tests__/docs.unit.spec.ts).
  "**/docs/__tests__/**/*.unit.spec.[jt]s",
]
// medusaIntegrationTestRunner boots on a clone of the migrated template database global-setup.js made, not on a
// freshly migrated one (integration-tests/setup/template-database.js).
const RUNNER_FROM_TEMPLATE = { "^@medusajs/test-utils$": "<rootDir>/integration-tests/setup/test-utils-from-template.js" }
const { APP_TIERS, DEPLOYMENT_FILES, appTiersOf } = require("./integration-tests/setup/app-tiers")
const appTiers = appTiersOf(type)
if (appTiers.length) {
  // integration:http, reliability, or both in one run (integration-tests/setup/app-tiers.js); the spec files that run
  // inside an app group (integration-tests/setup/app-groups.js) are left out of the file list.
  module.exports.testMatch = appTiers.flatMap((tier) => APP_TIERS[tier])
  const deploymentElsewhere = appTiers.includes("deployment") ? [] : unlessNamed(DEPLOYMENT_FILES.map((f) => require("node:path").join(__dirname, f)))
  module.exports.testPathIgnorePatterns = ["/node_modules/", ...[...appTiers.flatMap(groupedSpecs), ...deploymentElsewhere].map(exactPath)]
  module.exports.testSequencer = "<rootDir>/integration-tests/setup/longest-first-sequencer.js"
  module.exports.globalSetup = "<rootDir>/integration-tests/setup/global-setup.js"
  module.exports.globalTeardown = "<rootDir>/integration-tests/setup/global-teardown.js"
  module.exports.setupFiles = ["<rootDir>/integration-tests/setup/setup-env.js"]
  module.exports.moduleNameMapper = RUNNER_FROM_TEMPLATE
  // Booting Medusa takes seconds to tens of seconds on 2 cores; hooks share this limit (the reliability files, at
  // volume, have the longer one).
  module.exports.testTimeout = appTiers.includes("reliability") || appTiers.includes("deployment") ? 300000 : 240000
} else if (type === "unit") {
  module.exports.testMatch = unitMatch
} else if (type === "starter") {
  // The dtc-starter-shaped storefront (scripts/test-starter.js installs it): a Postgres found or started as for the
  // integration tests; the spec builds, packs and starts everything else itself.
  module.exports.testMatch = ["**/storefront-tests/*.spec.[jt]s"]
  module.exports.globalSetup = "<rootDir>/integration-tests/setup/global-setup.js"
  module.exports.globalTeardown = "<rootDir>/integration-tests/setup/global-teardown.js"
} else if (type === "browser") {
  // Browser tests: browser-tests/**/*.spec.ts drive the sandbox's payer pages in the system Chromium (playwright-core).
  module.exports.testMatch = ["**/browser-tests/**/*.spec.[jt]s"]
  // Once per run (browser-tests/helpers/global-setup.ts): a Postgres found or started as for integration tests, the
  // plugin build, the admin dashboard's build and one Chromium that every spec file connects to.
  module.exports.globalSetup = "<rootDir>/browser-tests/helpers/global-setup.ts"
  module.exports.globalTeardown = "<rootDir>/browser-tests/helpers/global-teardown.ts"
}

// Unit vs contract: the unit spec files that start a server (the sandbox), open a connection or spawn a process form the
// contract tier (TEST_TYPE=contract: still no Medusa or Postgres, a few seconds each); the unit tier is the rest. Chosen
// by what the file calls (scripts/contract-spec-files.js), so a new spec file lands in the right tier without a naming
// rule. TEST_TYPE=unit+contract runs both tiers in one Jest run (`npm run test:quick`, and `npm test`'s first step:
// scripts/test-tiers.js): the contract files mostly wait on their sockets, so the unit files fill the cores meanwhile.
if (type === "unit" || type === "contract" || type === "unit+contract") {
  const { contractSpecFiles } = require("./scripts/contract-spec-files")
  const contract = contractSpecFiles()
  if (type === "unit+contract") module.exports.testMatch = unitMatch
  if (type === "unit") module.exports.testPathIgnorePatterns = ["/node_modules/", ...contract.map(exactPath)]
  if (type === "contract") module.exports.testMatch = contract.length ? contract : ["<no socket specs>"]
}

/**
 * The spec files of a tier that run inside an app group (integration-tests/groups/) and so not by themselves, unless
 * the command line names them (`npx jest integration-tests/http/smoke.spec.ts` runs that file alone, on its own app)
 * or PNE_TEST_APP_GROUPS=off (every file alone, as before the groups).
 */
function groupedSpecs(tier) {
  const path = require("node:path")
  if (process.env.PNE_TEST_APP_GROUPS === "off") return []
  const members = Object.values(require("./integration-tests/setup/app-groups")[tier] ?? {}).flat()
  return unlessNamed(members.map((name) => path.join(__dirname, `${name}.spec.ts`)))
}

/** The files the command line does not name (a file named there runs, whatever tier it belongs to). */
function unlessNamed(files) {
  const named = process.argv.slice(2).filter((a) => !a.startsWith("-"))
  return files.filter((file) => !named.some((arg) => { try { return new RegExp(arg).test(file) } catch { return file.includes(arg) } }))
}

function exactPath(p) {
  return `^${p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`
}

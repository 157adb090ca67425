/**
 * `npm run demo [-- --once] [-- --verbose] [-- --trace]` — entry point. `--trace` prints the traces of the plugin's
 * gateway calls (trace.ts, registered before the app loads). Sets the environment Medusa reads when its modules load
 * (log level, telemetry off, development mode so the admin dashboard is served by Vite on demand instead of needing a
 * production build), then hands over to run.ts. Keep this file free of Medusa imports: they would load first.
 */
const args = new Set(process.argv.slice(2))
process.env.MEDUSA_DISABLE_TELEMETRY = process.env.MEDUSA_DISABLE_TELEMETRY ?? "true"
process.env.NODE_ENV = process.env.NODE_ENV ?? "development"
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? (args.has("--verbose") ? "info" : "warn")

// pg (inside Medusa) warns about overlapping client.query() calls during seeding; it is Medusa's, not actionable here.
const emitWarning = process.emitWarning.bind(process)
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const text = typeof warning === "string" ? warning : warning.message
  if (text.includes("client.query() when the client is already executing a query")) return
  return (emitWarning as (...a: unknown[]) => void)(warning, ...rest)
}) as typeof process.emitWarning

// eslint-disable-next-line @typescript-eslint/no-var-requires
if (args.has("--trace")) (require("./trace") as typeof import("./trace")).registerDemoTracing()
// eslint-disable-next-line @typescript-eslint/no-var-requires
const { main } = require("./run") as typeof import("./run")
main({ once: args.has("--once") })

/** Jest setupFiles for the integration project (runs in each test file's environment before the spec). */
// Medusa prints an analytics banner and may phone home otherwise; tests never want either.
process.env.MEDUSA_DISABLE_TELEMETRY = process.env.MEDUSA_DISABLE_TELEMETRY ?? "true"
// MikroORM keeps entity metadata in a process-global store; with --runInBand several spec files share the process.
const { MetadataStorage } = require("@medusajs/framework/mikro-orm/core")
MetadataStorage.clear()
// Medusa's logger prints every migration at "info"; keep test output readable. Override with LOG_LEVEL=info when debugging.
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? "warn"

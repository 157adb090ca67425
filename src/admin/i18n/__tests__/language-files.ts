/**
 * The unit tier's view of src/admin/i18n: what i18n/index.ts finds there with Vite's glob import (every `<code>.ts`
 * but index.ts), read from disk for jest, and the languages Medusa's dashboard ships, read from the installed
 * @medusajs/dashboard (its i18n/languages.ts), not copied, so a language Medusa adds shows up here on upgrade.
 */
import fs from "node:fs"
import path from "node:path"
import { languagesFrom } from "../../lib/languages"

export const I18N_DIR = path.join(__dirname, "..")

/** path ("./de.ts") → module, as `import.meta.glob(["./*.ts", "!./index.ts"], { eager: true })` gives them. */
export function languageModules(): Record<string, unknown> {
  const files = fs.readdirSync(I18N_DIR).filter((f) => f.endsWith(".ts") && f !== "index.ts" && !f.endsWith(".d.ts"))
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return Object.fromEntries(files.map((f) => [`./${f}`, require(path.join(I18N_DIR, f))]))
}

/** Every language that has a file (English always), the way the dashboard gets them. */
export const languagesOnDisk = () => languagesFrom(languageModules())

/** The language codes of Medusa's language picker (`code: "ptBR"` in @medusajs/dashboard/src/i18n/languages.ts). */
export function dashboardLanguageCodes(): string[] {
  const file = require.resolve("@medusajs/dashboard/package.json").replace(/package\.json$/, "src/i18n/languages.ts")
  const codes = [...fs.readFileSync(file, "utf8").matchAll(/\bcode:\s*"([A-Za-z]+)"/g)].map((m) => m[1])
  if (codes.length < 2) throw new Error(`no language codes found in ${file}`)
  return codes
}

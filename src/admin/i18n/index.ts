/**
 * The plugin's translations, picked up by Medusa's admin (admin-vite-plugin reads `src/admin/i18n/index.ts`) and
 * deep-merged into the dashboard's own i18next resources, so the plugin's screens follow the language the admin
 * chose in Medusa's profile settings. Keys live under `payneteasy.*`; one file per language of Medusa's dashboard
 * (`<code>.ts` exporting `<code>`, typed `Messages` from ./en.ts), found here at build time (Vite's glob import): a
 * language whose file is missing is not registered, and i18next falls back to English (the dashboard's fallback
 * language). lib/languages.ts builds the resources; i18n/__tests__ checks every file against en.ts.
 */
import { i18nResources, languagesFrom } from "../lib/languages"

export const LANGUAGES = languagesFrom(import.meta.glob(["./*.ts", "!./index.ts"], { eager: true }))

export default i18nResources(LANGUAGES)

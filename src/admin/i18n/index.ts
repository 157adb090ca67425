/**
 * The plugin's translations, picked up by Medusa's admin (admin-vite-plugin reads `src/admin/i18n/index.ts`) and
 * deep-merged into the dashboard's own i18next resources, so the plugin's screens follow the language the admin
 * chose in Medusa's profile settings. Keys live under `payneteasy.*`; a language without a file falls back to English
 * (the dashboard's fallback language).
 */
import { de } from "./de"
import { en } from "./en"

export const LANGUAGES = { en, de } as const

export default {
  en: { translation: en },
  de: { translation: de },
}

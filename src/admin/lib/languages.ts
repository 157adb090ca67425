/**
 * Which languages the plugin's screens have: one file per language in src/admin/i18n (`<code>.ts` exporting
 * `<code>`, the dashboard's language code: `de`, `ptBR`, `zhCN`), found by i18n/index.ts and turned here into the
 * resources Medusa's admin merges into its i18next. A language without a file is simply not registered, so i18next
 * shows it the dashboard's fallback language, English. Pure, so the unit tier covers it.
 */
import { en, type Messages } from "../i18n/en"

/** `./ptBR.ts` → `ptBR`; anything else (index.ts, a nested path) → null. */
export function languageCode(path: string): string | null {
  return /^\.\/([A-Za-z]{2,3}(?:[A-Z]{2})?)\.ts$/.exec(path)?.[1] ?? null
}

/** The language files' modules (path → module) → the words of each language that has a file; English always. */
export function languagesFrom(files: Record<string, unknown>): Record<string, Messages> {
  const out: Record<string, Messages> = {}
  for (const [path, mod] of Object.entries(files)) {
    const code = languageCode(path)
    if (!code || !mod || typeof mod !== "object") continue
    const m = mod as Record<string, unknown>
    const words = m[code] ?? m.default
    if (words && typeof words === "object" && "payneteasy" in words) out[code] = words as Messages
  }
  out.en ??= en
  return out
}

/** What Medusa's admin takes from a plugin's i18n/index.ts: `{ <code>: { translation: words } }`. */
export function i18nResources(languages: Record<string, Messages>): Record<string, { translation: Messages }> {
  return Object.fromEntries(Object.entries(languages).map(([code, words]) => [code, { translation: words }]))
}

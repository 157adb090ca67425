/**
 * The plugin's languages (src/admin/i18n): every language Medusa's dashboard ships has a file; every file has exactly
 * en.ts's keys (plus the plural forms its language needs beyond one/other); every `{{placeholder}}` of English is in
 * each translation; no translation is mostly English left as it was; and a language without a file falls back to
 * English in i18next (the dashboard's fallback), while one with a file is used, plurals included.
 * Until every language's file exists, the first and last checks name the languages still missing.
 */
import i18next from "i18next"
import { en } from "../en"
import { EXTRA_PLURAL_FORMS } from "../en"
import { i18nResources, languageCode, languagesFrom } from "../../lib/languages"
import { intlLocale } from "../../lib/formatters"
import { dashboardLanguageCodes, languageModules, languagesOnDisk } from "./language-files"

type Tree = { [k: string]: string | Tree }

function leaves(obj: Tree, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === "string") out[`${prefix}${k}`] = v
    else Object.assign(out, leaves(v, `${prefix}${k}.`))
  }
  return out
}

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]).sort()
/** `a.b_few` → `a.b` when en has `a.b_other` (i18next's plural suffixes), else null. */
const pluralBase = (key: string, english: Record<string, string>) => {
  const m = /^(.*)_(zero|one|two|few|many|other)$/.exec(key)
  return m && `${m[1]}_other` in english ? m[1] : null
}
/** The plural categories of a language (i18next picks `_<category>` with Intl.PluralRules, as here). */
const pluralCategories = (code: string) => new Intl.PluralRules(intlLocale(code)).resolvedOptions().pluralCategories as string[]

const EN = leaves(en as unknown as Tree)
const LANGS = languagesOnDisk()
const TRANSLATIONS = Object.entries(LANGS).filter(([code]) => code !== "en")
/** English (UK) is English: it may repeat most of en's words (only spellings like "authorised" differ). */
const ENGLISH_VARIANTS = new Set(["en", "enGB"])

describe("the plugin's languages", () => {
  it("(a) every language Medusa's dashboard ships has a file in src/admin/i18n", () => {
    const medusa = dashboardLanguageCodes()
    expect(medusa).toEqual(expect.arrayContaining(["en", "de", "ptBR", "zhCN"]))
    const missing = medusa.filter((code) => !(code in LANGS))
    expect({ missing }).toEqual({ missing: [] })
    // and no file for a language Medusa does not ship (a typo like pt_BR.ts would never be picked)
    expect(Object.keys(LANGS).filter((code) => !medusa.includes(code))).toEqual([])
  })

  it("every file in src/admin/i18n is a language file exporting its words under its code", () => {
    for (const [path, mod] of Object.entries(languageModules())) {
      const code = languageCode(path)
      expect([path, code && typeof (mod as Record<string, unknown>)[code]]).toEqual([path, "object"])
    }
  })

  it("(b) every translation has exactly en's keys, plus the plural forms its language needs", () => {
    for (const [code, words] of TRANSLATIONS) {
      const keys = leaves(words as unknown as Tree)
      const missing = Object.keys(EN).filter((k) => !(k in keys))
      const needed = pluralCategories(code).filter((c) => c !== "one" && c !== "other")
      const extra = Object.keys(keys).filter((k) => {
        if (k in EN) return false
        const base = pluralBase(k, EN)
        const form = k.slice(k.lastIndexOf("_") + 1)
        return !base || !needed.includes(form) || !(EXTRA_PLURAL_FORMS as readonly string[]).includes(form)
      })
      const pluralMissing = Object.keys(EN)
        .filter((k) => k.endsWith("_other"))
        .flatMap((k) => needed.map((c) => `${k.slice(0, -"_other".length)}_${c}`))
        .filter((k) => !(k in keys))
      expect({ code, missing, extra, pluralMissing }).toEqual({ code, missing: [], extra: [], pluralMissing: [] })
      for (const [k, v] of Object.entries(keys)) expect([code, k, typeof v === "string" && v.trim().length > 0]).toEqual([code, k, true])
    }
  })

  it("(c) every {{placeholder}} of English appears in each translation", () => {
    const wrong: string[] = []
    for (const [code, words] of TRANSLATIONS) {
      for (const [k, v] of Object.entries(leaves(words as unknown as Tree))) {
        const base = pluralBase(k, EN)
        const english = EN[k] ?? (base ? EN[`${base}_other`] : undefined)
        if (english === undefined) continue
        const lost = placeholders(english).filter((p) => !placeholders(v).includes(p))
        const made_up = placeholders(v).filter((p) => !placeholders(english).includes(p) && !(base && p === "count"))
        if (lost.length || made_up.length) wrong.push(`${code} ${k}: ${[...lost.map((p) => `lost {{${p}}}`), ...made_up.map((p) => `unknown {{${p}}}`)].join(", ")}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it("(d) no translation equals English for more than a third of its keys (an untranslated copy)", () => {
    const copies: string[] = []
    for (const [code, words] of TRANSLATIONS) {
      if (ENGLISH_VARIANTS.has(code)) continue
      const keys = leaves(words as unknown as Tree)
      const same = Object.keys(EN).filter((k) => keys[k] === EN[k]).length
      if (same * 3 > Object.keys(EN).length) copies.push(`${code}: ${same} of ${Object.keys(EN).length} keys are the English words`)
    }
    expect(copies).toEqual([])
  })
})

describe("registration (lib/languages.ts, as i18n/index.ts uses it)", () => {
  const t = async (resources: ReturnType<typeof i18nResources>, lng: string) => {
    const i = i18next.createInstance()
    await i.init({ resources, lng, fallbackLng: "en", fallbackNS: "translation", interpolation: { escapeValue: false } })
    return i.t.bind(i)
  }

  it("registers the languages that have a file, under Medusa's codes, English always", () => {
    const found = languagesFrom({ "./de.ts": { de: { payneteasy: {} } }, "./ptBR.ts": { ptBR: { payneteasy: {} } }, "./index.ts": {}, "./notes.ts": { x: 1 } })
    expect(Object.keys(found).sort()).toEqual(["de", "en", "ptBR"])
    expect(found.en).toBe(en)
    expect(Object.keys(i18nResources(found).ptBR)).toEqual(["translation"])
  })

  it("a language whose file is missing shows English; one with a file shows its own words, plurals included", async () => {
    const resources = i18nResources(languagesFrom({ "./en.ts": { en }, "./de.ts": languageModules()["./de.ts"] }))
    const fr = await t(resources, "fr")
    expect(fr("payneteasy.attention.markHandled")).toBe("Mark handled")
    expect(fr("payneteasy.attention.count", { count: 2 })).toBe("2 items need attention")
    const de = await t(resources, "de")
    expect(de("payneteasy.attention.markHandled")).toBe("Als erledigt markieren")
    expect(de("payneteasy.attention.count", { count: 1 })).toBe("1 Eintrag erfordert Aufmerksamkeit")
    expect(de("payneteasy.schedule.month", { count: 3 })).toBe("alle 3 Monate")
    const english = await t(resources, "en")
    expect(english("payneteasy.schedule.month", { count: 1 })).toBe("every month")
    expect(english("payneteasy.schedule.week", { count: 2 })).toBe("every 2 weeks")
  })
})

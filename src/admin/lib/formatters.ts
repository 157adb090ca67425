/**
 * How the plugin's screens write money, dates, cards and orders, the way Medusa's dashboard does: money with
 * Intl's currency format and narrow symbol (as the dashboard's getLocaleAmount), exact — the decimal string is handed
 * to Intl as a string, never turned into a float; dates as the dashboard's "PP p" (medium date, short time); one card
 * masking (brand •••• last four); orders as "#18". Pure functions of the language, so they are unit-tested.
 */

/** Medusa's languages are i18next codes ("en", "de", "ptBR"); Intl wants BCP 47 ("pt-BR"). */
export function intlLocale(language: string | undefined): string {
  const l = (language || "en").replace(/^([a-z]{2})([A-Z]{2})$/, "$1-$2")
  try {
    return Intl.getCanonicalLocales(l)[0] ?? "en"
  } catch {
    return "en"
  }
}

/** "54.85", "EUR" → "€54.85" (en) / "54,85 €" (de); exact for any length of decimal string. */
export function formatMoney(amount: string | null | undefined, currency: string | null | undefined, language?: string): string {
  if (amount === null || amount === undefined || amount === "") return "—"
  const code = (currency ?? "").trim().toUpperCase()
  if (!/^[A-Z]{3}$/.test(code) || !/^-?\d+(\.\d+)?$/.test(amount.trim())) return `${amount} ${code}`.trim()
  try {
    const f = new Intl.NumberFormat(intlLocale(language), { style: "currency", currency: code, currencyDisplay: "narrowSymbol" })
    // A string is formatted exactly (Intl.NumberFormat v3); a number would round above 2^53.
    return f.format(amount.trim() as unknown as number)
  } catch {
    return `${amount} ${code}`
  }
}

/** An ISO date → "Nov 25, 2026, 8:05 PM" (en) / "25.11.2026, 20:05" (de): the dashboard's medium date, short time. */
export function formatDate(iso: string | Date | null | undefined, language?: string): string {
  if (!iso) return "—"
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return "—"
  return new Intl.DateTimeFormat(intlLocale(language), { dateStyle: "medium", timeStyle: "short" }).format(d)
}

/** One masking for every card: "Visa •••• 1111"; the brand capitalised, "Card" when unknown. */
export function formatCard(brand: string | null | undefined, last4: string | null | undefined, unknownBrand = "Card"): string {
  const b = (brand ?? "").trim()
  const name = b ? b.charAt(0).toUpperCase() + b.slice(1).toLowerCase() : unknownBrand
  const four = (last4 ?? "").replace(/\D/g, "").slice(-4)
  return `${name} •••• ${four || "????"}`
}

/** A masked card number as the server stores it ("444455******1111") → its last four digits. */
export function lastFour(masked: string | null | undefined): string | null {
  const m = /(\d{4})\s*$/.exec(masked ?? "")
  return m ? m[1] : null
}

/** An order as Medusa shows it: "#18" (its display id), never its internal id. */
export function orderRef(displayId: number | string | null | undefined): string {
  return displayId === null || displayId === undefined || displayId === "" ? "—" : `#${displayId}`
}

/**
 * The plugin's words and formats inside a dashboard screen: `t` from the dashboard's own i18next instance (so the
 * language is the one the admin picked in Medusa), and money, dates and statuses written the one way
 * (lib/formatters.ts, lib/labels.ts). The plugin's resources are merged by Medusa at build time (i18n/index.ts); if a
 * host build did not merge them, they are added here once, so a screen never shows a raw key.
 */
import { useTranslation } from "react-i18next"
import resources from "../i18n"
import { formatCard, formatDate, formatMoney } from "./formatters"
import { statusLabel, type StatusGroup } from "./labels"

export function useWords() {
  const { t, i18n } = useTranslation()
  if (i18n && !i18n.exists("payneteasy.panel.title", { lng: "en" })) {
    for (const [lng, bundle] of Object.entries(resources)) i18n.addResourceBundle(lng, "translation", bundle.translation, true, false)
  }
  const lang = i18n?.language
  return {
    t,
    lang,
    money: (amount: string | null | undefined, currency: string | null | undefined) => formatMoney(amount, currency, lang),
    date: (iso: string | Date | null | undefined) => formatDate(iso, lang),
    card: (brand: string | null | undefined, last4: string | null | undefined) => formatCard(brand, last4, t("payneteasy.common.cardUnknownBrand")),
    /** Table.Pagination's words ("1 — 8 of 8 results", Prev, Next) in Medusa's own keys, as its LocalizedTablePagination. */
    pagination: { of: t("general.of"), results: t("general.results"), pages: t("general.pages"), prev: t("general.prev"), next: t("general.next") },
    /** A subscription schedule in words: "every month", "every 3 months" (i18next plural keys per period). */
    schedule: (s: { period: string; interval: number }) => t(`payneteasy.schedule.${s.period}`, { count: s.interval }),
    status: (group: StatusGroup, value: string | null | undefined) => {
      const l = statusLabel(group, value)
      return { label: l.known ? t(l.key) : `${t(l.key)} (${value ?? "—"})`, color: l.color }
    },
  }
}

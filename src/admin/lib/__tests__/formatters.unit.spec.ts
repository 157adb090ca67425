/**
 * The dashboard's formatters (lib/formatters.ts): money in Medusa's format and exact for any decimal string, dates as
 * the dashboard writes them, one card masking, orders as "#N".
 */
import { formatCard, formatDate, formatMoney, intlLocale, lastFour, orderRef } from "../formatters"

describe("formatMoney", () => {
  it("writes money like Medusa's dashboard (currency symbol, the currency's decimals)", () => {
    expect(formatMoney("54.85", "EUR", "en")).toBe("€54.85")
    expect(formatMoney("54.85", "eur", "en")).toBe("€54.85")
    expect(formatMoney("5", "EUR", "en")).toBe("€5.00")
    expect(formatMoney("1000", "JPY", "en")).toBe("¥1,000")
    expect(formatMoney("1.234", "KWD", "en")).toMatch(/1\.234/)
    expect(formatMoney("54.85", "EUR", "de").replace(/\s/g, " ")).toBe("54,85 €")
  })

  it("is exact beyond float precision (the decimal string is never turned into a number)", () => {
    expect(formatMoney("12345678901234567.89", "EUR", "en")).toBe("€12,345,678,901,234,567.89")
    expect(formatMoney("0.10", "EUR", "en")).toBe("€0.10")
  })

  it("falls back to the plain text when it is not a decimal amount or a currency code", () => {
    expect(formatMoney(null, "EUR")).toBe("—")
    expect(formatMoney("", "EUR")).toBe("—")
    expect(formatMoney("abc", "EUR")).toBe("abc EUR")
    expect(formatMoney("10.00", "euro")).toBe("10.00 EURO")
  })
})

describe("formatDate", () => {
  it("medium date and short time, as the dashboard's 'PP p', in the admin's language", () => {
    const iso = "2026-11-25T20:05:00.000Z"
    const en = formatDate(iso, "en")
    expect(en).toMatch(/^Nov 25, 2026/)
    expect(en).not.toMatch(/11\/25\/2026/)
    expect(formatDate(iso, "de")).toMatch(/^25\.11\.2026/)
    expect(formatDate(null)).toBe("—")
    expect(formatDate("not a date")).toBe("—")
  })

  it("maps Medusa's language codes to Intl locales", () => {
    expect(intlLocale("ptBR")).toBe("pt-BR")
    expect(intlLocale("enGB")).toBe("en-GB")
    expect(intlLocale(undefined)).toBe("en")
    expect(intlLocale("!!")).toBe("en")
  })
})

describe("cards and orders", () => {
  it("one masking: brand •••• last four", () => {
    expect(formatCard("visa", "1111")).toBe("Visa •••• 1111")
    expect(formatCard("MASTERCARD", "444455******1111")).toBe("Mastercard •••• 1111")
    expect(formatCard(null, "1111", "Karte")).toBe("Karte •••• 1111")
    expect(formatCard("visa", null)).toBe("Visa •••• ????")
    expect(lastFour("444455******1111")).toBe("1111")
    expect(lastFour(null)).toBeNull()
  })

  it("orders as #N", () => {
    expect(orderRef(18)).toBe("#18")
    expect(orderRef(null)).toBe("—")
  })
})

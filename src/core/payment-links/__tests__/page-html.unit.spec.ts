/**
 * The plugin's payment-link page (page-html.ts, page-words.ts): every language has every word and placeholder; the
 * shopper's language is picked from Accept-Language; the page is plain HTML (no script), escapes what it shows, and
 * says in words what the link's state is.
 */
import { PAGE_WORD_KEYS, PAGE_WORDS, pageLanguage } from "../page-words"
import { formatAmount, pageStatus, renderLinkPage } from "../page-html"
import type { PaymentLinkView } from "../link-view"

const view = (over: Partial<PaymentLinkView> = {}): PaymentLinkView => ({
  id: "pay_col_1", state: "payable", why: null, message: null, amount: "10.42", currency_code: "EUR",
  order: { id: "order_1", display_id: 7, items: [{ title: "Mug <b>", quantity: "1", unit_price: "10.42" }] },
  provider_ids: ["pp_payneteasy_auto"], session: null, declined: null, ...over,
})
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe("the payment-link page", () => {
  it("every language has every key, with English's placeholders", () => {
    for (const [lang, words] of Object.entries(PAGE_WORDS)) {
      expect([lang, Object.keys(words).sort()]).toEqual([lang, [...PAGE_WORD_KEYS].sort()])
      for (const k of PAGE_WORD_KEYS) expect([lang, k, placeholders(words[k])]).toEqual([lang, k, placeholders(PAGE_WORDS.en[k])])
    }
  })

  it("picks the shopper's language: ?lang= first, then Accept-Language by q, else English", () => {
    expect(pageLanguage(undefined, "de-DE,de;q=0.9,en;q=0.8")).toBe("de")
    expect(pageLanguage(undefined, "ja;q=0.9,fr;q=0.5")).toBe("fr")
    expect(pageLanguage(undefined, "en;q=0.3,pl;q=0.7")).toBe("pl")
    expect(pageLanguage("uk", "de")).toBe("uk")
    expect(pageLanguage("xx", "ja")).toBe("en")
    expect(pageLanguage(undefined, "fr;q=0")).toBe("en")
  })

  it("a language named like an object's own property is not a language (fuzzing: ?lang=constructor answered 500)", () => {
    for (const tag of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf-DE"]) {
      expect([tag, pageLanguage(tag, undefined)]).toEqual([tag, "en"])
      expect([tag, pageLanguage(undefined, `${tag},de;q=0.5`)]).toEqual([tag, "de"])
      const html = renderLinkPage({ view: view(), lang: tag, action: "/x", notice: "pending" })
      expect(html).toContain('<html lang="en">')
      expect(html).toContain(PAGE_WORDS.en.pending.split("{")[0].slice(0, 20))
    }
  })

  it("a payable link: heading, amount in the language's format, lines in a table, one form that posts back, no script", () => {
    const html = renderLinkPage({ view: view(), lang: "de", action: "/payneteasy/payment-collection/pay_col_1?order_id=order_1" })
    expect(html).toContain('<html lang="de">')
    expect(html).toContain("<h1>Zahlung für Bestellung #7</h1>")
    expect(html).toContain(formatAmount("10.42", "EUR", "de"))
    expect(html).toContain('<th scope="row">Mug &lt;b&gt;</th>')
    expect(html).toContain('<form method="post" action="/payneteasy/payment-collection/pay_col_1?order_id=order_1">')
    expect(html).not.toMatch(/<script/i)
    expect(pageStatus(view())).toBe(200)
  })

  it("says in words when a link is paid, expired or unknown, with no button", () => {
    const paid = renderLinkPage({ view: view({ state: "paid" }), lang: "en", action: "/x" })
    expect(paid).toContain("This payment link is already paid. Thank you.")
    expect(paid).not.toContain("<form")
    expect(renderLinkPage({ view: view({ state: "paid" }), lang: "en", action: "/x", notice: "receipt" })).toContain("Your payment for order #7 has been received.")
    const expired = view({ state: "expired", why: "canceled", order: null, amount: null })
    expect(renderLinkPage({ view: expired, lang: "fr", action: "/x" })).toContain("Ce lien de paiement a expiré : le paiement a été annulé.")
    expect(pageStatus(expired)).toBe(410)
    expect(pageStatus(view({ state: "expired", why: "not_found" }))).toBe(404)
    expect(pageStatus(view({ state: "not_an_order" }))).toBe(404)
  })

  it("a decline names the gateway's reason (escaped) and offers to pay again; pending offers nothing to press", () => {
    const declined = renderLinkPage({ view: view({ declined: "Declined: <insufficient> funds" }), lang: "en", action: "/x" })
    expect(declined).toContain("(Declined: &lt;insufficient&gt; funds)")
    expect(declined).toContain("Try again: pay €10.42")
    const pending = renderLinkPage({ view: view(), lang: "en", action: "/x", notice: "pending" })
    expect(pending).toContain("please do not pay again".replace("please", "Please"))
    expect(pending).not.toContain("<form")
  })

  it("formats from the exact decimal string, whatever the currency's exponent", () => {
    expect(formatAmount("1500", "JPY", "en")).toBe("¥1,500")
    expect(formatAmount("1.235", "KWD", "en")).toMatch(/1\.235/)
    expect(formatAmount("12345678901234567.89", "EUR", "en")).toContain("12,345,678,901,234,567.89")
  })
})

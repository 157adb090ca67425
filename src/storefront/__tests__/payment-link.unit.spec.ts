/**
 * The payment-link page of the kit (issue 50): its core over a scripted `client.fetch` (the kit's own seam: every
 * request goes through that one method), the exact money formatting, the view model's words in every language, the
 * return handler's way back to the link's page, the server-action carrier's list, and the React page rendered on
 * the server. The kit's copy of the store route's response type is held equal to the server's here.
 */
import fc from "fast-check"
import { createElement } from "react"
import { renderToStaticMarkup } from "react-dom/server"
import type { PaymentLinkView as ServerLinkView } from "../../core/payment-links/link-view"
import {
  createMessages, createReturnHandler, formatMoney, isKitRequest, linkRefusal, MESSAGES, notFoundLink, PaymentLinkError,
  linkStillDeciding, paymentLinkModel, paymentLinkNotice, paymentLinkPath, PaynetEasyCheckoutError, payPaymentLink, readPaymentLink,
  waitForPaymentLink,
  type PaymentLinkView, type StoreRequestInit, type StoreSdk,
} from ".."
import { PaymentLinkPage, PaynetEasyProvider } from "../react"

// The kit's PaymentLinkView is the server's, field for field (a compile-time check: tsc fails when they drift apart).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameAsServer: Same<PaymentLinkView, ServerLinkView> = true

function fetchSdk(answer: (path: string, init: StoreRequestInit) => unknown) {
  const calls: Array<{ path: string; init: StoreRequestInit }> = []
  const sdk: StoreSdk = {
    client: {
      async fetch<T>(path: string, init: StoreRequestInit = {}) {
        calls.push({ path, init })
        return answer(path, init) as T
      },
    },
  }
  return { sdk, calls }
}
const failure = (message: string, status: number) => Object.assign(new Error(message), { status })

const payable = (over: Partial<PaymentLinkView> = {}): PaymentLinkView => ({
  id: "pay_col_1",
  state: "payable",
  why: null,
  message: null,
  amount: "14.58",
  currency_code: "EUR",
  order: { id: "order_1", display_id: 42, items: [{ title: "Shirt · L", quantity: "2", unit_price: "10.00" }] },
  provider_ids: ["pp_payneteasy_payneteasy"],
  session: null,
  declined: null,
  ...over,
})
const paid = () => payable({ state: "paid", message: "This payment link is already paid.", provider_ids: [] })
const canceled = () => payable({ state: "expired", why: "canceled", message: "This payment link has expired: the payment was canceled.", provider_ids: [] })

describe("readPaymentLink", () => {
  it("reads the store route with the link's order_id and the caller's headers; the answer is the server's view", async () => {
    const view = payable()
    const { sdk, calls } = fetchSdk(() => ({ payment_link: view }))
    expect(await readPaymentLink(sdk, "pay_col_1", "order_1", { authorization: "Bearer t" })).toBe(view)
    expect(calls).toEqual([{
      path: "/store/payneteasy/payment-collections/pay_col_1",
      init: { query: { order_id: "order_1" }, headers: { authorization: "Bearer t" } },
    }])
    expect(sameAsServer).toBe(true)
  })

  it("a 404 (no such link, or another order's id) is the not-found view; other failures are thrown with their status", async () => {
    const missing = fetchSdk(() => { throw failure("Not Found", 404) })
    const view = await readPaymentLink(missing.sdk, "pay_col_x")
    expect(view).toEqual(notFoundLink("pay_col_x"))
    expect(linkRefusal(view)).toBe("not_found")
    expect(missing.calls[0].init.query).toBeUndefined()
    const down = fetchSdk(() => { throw failure("Bad Gateway", 502) })
    await expect(readPaymentLink(down.sdk, "pay_col_1")).rejects.toMatchObject({ name: "PaynetEasyCheckoutError", status: 502 })
  })
})

describe("waitForPaymentLink (after the return from the hosted page)", () => {
  const open = (over: Partial<PaymentLinkView> = {}) =>
    payable({ session: { id: "payses_1", provider_id: "pp_payneteasy_payneteasy", status: "pending", redirect_url: "https://gate.example/p" }, ...over })

  it("reads again while the page is open and undecided, and answers the first decided view (paid)", async () => {
    const views = [open(), open(), paid()]
    const seen: string[] = []
    const { sdk, calls } = fetchSdk(() => ({ payment_link: views.shift() }))
    const view = await waitForPaymentLink(sdk, "pay_col_1", "order_1", { initialDelayMs: 1, onView: (v) => seen.push(v.state) })
    expect(view.state).toBe("paid")
    expect(seen).toEqual(["payable", "payable", "paid"])
    expect(calls).toHaveLength(3)
  })

  it("a decline ends the wait at once (the link can be paid again); the time limit answers the last undecided view", async () => {
    const declined = fetchSdk(() => ({ payment_link: open({ declined: "Do not honor" }) }))
    expect(await waitForPaymentLink(declined.sdk, "pay_col_1", "order_1", { initialDelayMs: 1 })).toMatchObject({ declined: "Do not honor" })
    expect(declined.calls).toHaveLength(1)
    const slow = fetchSdk(() => ({ payment_link: open() }))
    const last = await waitForPaymentLink(slow.sdk, "pay_col_1", "order_1", { timeoutMs: 30, initialDelayMs: 5, maxDelayMs: 5 })
    expect(linkStillDeciding(last)).toBe(true)
    expect(slow.calls.length).toBeGreaterThan(1)
    const ctrl = new AbortController()
    const stopped = waitForPaymentLink(slow.sdk, "pay_col_1", "order_1", { initialDelayMs: 10_000, signal: ctrl.signal })
    setTimeout(() => ctrl.abort(new Error("left the page")), 5)
    await expect(stopped).rejects.toThrow("left the page")
  })
})

describe("payPaymentLink", () => {
  it("asks for the hosted page with nothing but the link's ids (the amount is the collection's); answers the page to go to", async () => {
    const { sdk, calls } = fetchSdk(() => ({ payment_link: payable(), redirect_url: "https://gate.example/pay/1", payment_session_id: "payses_1", resumed: true }))
    const out = await payPaymentLink(sdk, "pay_col_1", "order_1")
    expect(out).toMatchObject({ type: "redirect", url: "https://gate.example/pay/1", sessionId: "payses_1", resumed: true })
    expect(calls).toEqual([{ path: "/store/payneteasy/payment-collections/pay_col_1/pay", init: { method: "POST", body: { order_id: "order_1" }, headers: undefined } }])
  })

  it("a saved card: card id and CVV (trimmed, only with a card), the registration when asked; paid at once", async () => {
    const { sdk, calls } = fetchSdk(() => ({ payment_link: paid() }))
    const out = await payPaymentLink(sdk, "pay_col_1", "order_1", { cardId: "pnecard_1", cvv: " 123 ", providerId: "pp_payneteasy_b" })
    expect(out).toMatchObject({ type: "paid" })
    expect(calls[0].init.body).toEqual({ order_id: "order_1", provider_id: "pp_payneteasy_b", card_id: "pnecard_1", cvv2: "123" })
    const noCard = fetchSdk(() => ({ payment_link: payable(), redirect_url: "https://gate.example/p" }))
    await payPaymentLink(noCard.sdk, "pay_col_1", undefined, { cvv: "123" })
    expect(noCard.calls[0].init.body).toEqual({})
  })

  it("202 pending: nothing new started, never a second page", async () => {
    const { sdk } = fetchSdk(() => ({ type: "pending", message: "in progress", payment_link: payable() }))
    expect(await payPaymentLink(sdk, "pay_col_1", "order_1")).toMatchObject({ type: "pending", message: "in progress" })
  })

  it("402 declined: the link is read again for the gateway's reason, and can be paid again", async () => {
    const { sdk, calls } = fetchSdk((path) => {
      if (path.endsWith("/pay")) throw failure("Declined", 402)
      return { payment_link: payable({ declined: "Insufficient funds" }) }
    })
    const out = await payPaymentLink(sdk, "pay_col_1", "order_1", { cardId: "pnecard_1" })
    expect(out).toMatchObject({ type: "declined", message: "Insufficient funds", view: { state: "payable" } })
    expect(calls.map((c) => c.init.method ?? "GET")).toEqual(["POST", "GET"])
  })

  it("409 on a link paid meanwhile is the paid outcome; canceled and not found throw PaymentLinkError with the reason in one word", async () => {
    const answers = (view: PaymentLinkView | "missing", status: number) =>
      fetchSdk((path) => {
        if (path.endsWith("/pay")) throw failure("refused", status)
        if (view === "missing") throw failure("Not Found", 404)
        return { payment_link: view }
      }).sdk
    expect(await payPaymentLink(answers(paid(), 409), "pay_col_1", "order_1")).toMatchObject({ type: "paid" })
    const gone = payPaymentLink(answers(canceled(), 409), "pay_col_1", "order_1")
    await expect(gone).rejects.toBeInstanceOf(PaymentLinkError)
    await expect(gone).rejects.toMatchObject({ reason: "canceled", status: 409, message: "This payment link has expired: the payment was canceled." })
    await expect(payPaymentLink(answers("missing", 404), "pay_col_x", "order_1")).rejects.toMatchObject({ reason: "not_found", status: 404 })
    await expect(payPaymentLink(answers(payable({ state: "nothing_owed", amount: "0.00" }), 409), "pay_col_1", undefined)).rejects.toMatchObject({ reason: "nothing_owed" })
  })

  it("a 409 on a link still payable is pending (another tab is paying); a 404 on one (a card not theirs) and a 400 are refusals", async () => {
    const on = (status: number) => fetchSdk((path) => {
      if (path.endsWith("/pay")) throw failure("busy", status)
      return { payment_link: payable() }
    }).sdk
    expect(await payPaymentLink(on(409), "pay_col_1", "order_1")).toMatchObject({ type: "pending" })
    await expect(payPaymentLink(on(404), "pay_col_1", "order_1", { cardId: "pnecard_other" })).rejects.toBeInstanceOf(PaynetEasyCheckoutError)
    await expect(payPaymentLink(on(400), "pay_col_1", "order_1")).rejects.toMatchObject({ name: "PaynetEasyCheckoutError", status: 400 })
  })
})

describe("formatMoney: the server's decimal string, digit for digit", () => {
  it("in the shopper's format, with the currency's own digits", () => {
    expect(formatMoney("14.58", "eur", "en")).toBe("€14.58")
    expect(formatMoney("1234.50", "EUR", "de")).toBe("1.234,50\u00a0€")
    expect(formatMoney("1234.50", "RUB", "ru")).toBe("1\u00a0234,50\u00a0₽")
    expect(formatMoney("1500", "JPY", "en")).toBe("¥1,500")
    expect(formatMoney("1.234", "KWD", "en")).toBe("KWD\u00a01.234")
    // far beyond a float's 15–17 digits: every digit kept
    expect(formatMoney("12345678901234567.89", "USD", "en")).toBe("$12,345,678,901,234,567.89")
    expect(formatMoney("0.10", "USD", "en")).toBe("$0.10")
    expect(formatMoney("not a number", "usd")).toBe("not a number USD")
  })

  it("property: the digits shown are the string's digits (no rounding, none lost or added)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.constantFrom("en", "de", "ru"), (minor, locale) => {
        const s = minor.toString().padStart(3, "0")
        const amount = `${s.slice(0, -2).replace(/^0+(?=\d)/, "")}.${s.slice(-2)}`
        return formatMoney(amount, "EUR", locale).replace(/\D/g, "") === amount.replace(/\D/g, "")
      })
    )
  })
})

describe("paymentLinkModel: what the page shows, in the shopper's words", () => {
  it("a locale named like an object's own property is English, not the Object prototype's (the same hole as the plugin page's ?lang=constructor)", () => {
    for (const locale of ["constructor", "__proto__", "toString-DE"]) {
      expect([locale, createMessages(locale)]).toEqual([locale, MESSAGES.en])
      expect(paymentLinkModel(payable(), createMessages(locale), "en").heading).toBe("Payment for order #42")
    }
  })

  it("a payable link: heading with the order's number, lines and amount in the shopper's format, the pay button", () => {
    const m = paymentLinkModel(payable(), createMessages("en"), "en")
    expect(m).toMatchObject({
      canPay: true, heading: "Payment for order #42", amount: "€14.58", amountValue: "14.58", currencyCode: "EUR",
      lines: [{ title: "Shirt · L", quantity: "2", unitPrice: "€10.00" }],
      payLabel: "Pay €14.58 on the secure payment page", orderId: "order_1", providerIds: ["pp_payneteasy_payneteasy"],
    })
    expect(m.notice).toBeUndefined()
    const de = paymentLinkModel(payable(), createMessages("de-DE"), "de-DE")
    expect(de.heading).toBe("Zahlung für Bestellung #42")
    expect(de.payLabel).toBe("14,58\u00a0€ auf der sicheren Zahlungsseite bezahlen")
  })

  it("paid, canceled, the order canceled, not found, not an order's, nothing owed: no pay button, the state in words", () => {
    const en = createMessages("en")
    const cases: Array<[PaymentLinkView, string]> = [
      [paid(), en.linkPaid],
      [canceled(), en.linkCanceled],
      [payable({ state: "expired", why: "order_canceled" }), en.linkOrderCanceled],
      [notFoundLink("pay_col_x"), en.linkNotFound],
      [payable({ state: "not_an_order" }), en.linkNotAnOrder],
      [payable({ state: "nothing_owed", amount: "0.00" }), en.linkNothingOwed],
    ]
    for (const [view, text] of cases) {
      const m = paymentLinkModel(view, en, "en")
      expect({ canPay: m.canPay, notice: m.notice?.text }).toEqual({ canPay: false, notice: text })
      expect(paymentLinkNotice(view, en)).toBe(text)
    }
    expect(paymentLinkModel(notFoundLink("pay_col_x"), en).heading).toBe("Payment link")
  })

  it("after the return: a receipt when paid; 'confirming' and no button while the page is open; a decline in words without ids", () => {
    const en = createMessages("en")
    expect(paymentLinkModel(paid(), en, "en", { returned: true }).notice).toEqual({ kind: "paid", text: "Thank you. Your payment for order #42 has been received." })
    const open = payable({ session: { id: "payses_1", provider_id: "pp_payneteasy_payneteasy", status: "pending", redirect_url: "https://gate.example/p" } })
    expect(paymentLinkModel(open, en, "en", { returned: true })).toMatchObject({ canPay: false, notice: { kind: "confirming" } })
    expect(paymentLinkModel(open, en, "en")).toMatchObject({ canPay: true, notice: { kind: "resume", text: en.linkResume } })
    const declined = paymentLinkModel(payable({ declined: "Declined: insufficient funds (payses_01ABCDEFGH)" }), en, "en", { returned: true })
    expect(declined).toMatchObject({ canPay: true, notice: { kind: "declined", text: "Your last payment attempt was declined (insufficient funds). Nothing was charged; you can try again." } })
  })

  it("every language of messages.ts has every payment-link text, and its state words differ from English", () => {
    const keys = Object.keys(MESSAGES.en).filter((k) => k.startsWith("link")).sort()
    expect(keys.length).toBeGreaterThan(15)
    for (const [lang, texts] of Object.entries(MESSAGES)) {
      expect(Object.keys(texts).filter((k) => k.startsWith("link")).sort()).toEqual(keys)
      for (const k of keys) expect(texts[k as keyof typeof texts]).toEqual(expect.stringMatching(/\S/))
      if (lang !== "en") expect(texts.linkPaid).not.toBe(MESSAGES.en.linkPaid)
    }
    expect(createMessages("ru").linkNotFound).toBe("Такой ссылки на оплату нет, или срок её действия истёк.")
  })
})

describe("the link's way back and through the server action", () => {
  it("paymentLinkPath is the dashboard's link (under a base), with returned=1 for a return", () => {
    expect(paymentLinkPath("pay_col_1", "order_1")).toBe("/payment-collection/pay_col_1?order_id=order_1")
    expect(paymentLinkPath("pay_col_1", "order_1", { base: "/dk/", returned: true })).toBe("/dk/payment-collection/pay_col_1?order_id=order_1&returned=1")
  })

  it("the return handler sends a link's return (no cart) back to the link's page, completing nothing", async () => {
    const { sdk, calls } = fetchSdk(() => { throw new Error("no request expected") })
    const handler = createReturnHandler({ sdk })
    const url = "https://shop.example/dk/payneteasy/return?payment_collection_id=pay_col_1&order_id=order_1&payment_session_id=payses_1&gateway_status=approved&pne_landed=1"
    const res = await handler(new Request(url))
    expect(res.status).toBe(303)
    expect(res.headers.get("location")).toBe("https://shop.example/dk/payment-collection/pay_col_1?order_id=order_1&returned=1")
    expect(calls).toEqual([])
    const own = createReturnHandler({ sdk, paymentLinkUrl: (p) => `/pay/${p.paymentCollectionId}` })
    expect((await own(new Request(url))).headers.get("location")).toBe("https://shop.example/pay/pay_col_1")
  })

  it("the server action carries a link's view and payment (a saved card needs the customer's cookie), nothing else of it", () => {
    expect(isKitRequest({ method: "GET", path: "/store/payneteasy/payment-collections/pay_col_1" })).toBe(true)
    expect(isKitRequest({ method: "POST", path: "/store/payneteasy/payment-collections/pay_col_1/pay" })).toBe(true)
    expect(isKitRequest({ method: "POST", path: "/store/payneteasy/payment-collections/pay_col_1" })).toBe(false)
    expect(isKitRequest({ method: "GET", path: "/store/payneteasy/payment-collections/pay_col_1/../../orders" })).toBe(false)
  })
})

describe("PaymentLinkPage (rendered on the server, as a Next.js page's first paint)", () => {
  const render = (view: PaymentLinkView, props: Record<string, unknown> = {}, locale = "en") =>
    renderToStaticMarkup(
      createElement(PaynetEasyProvider, { sdk: fetchSdk(() => ({})).sdk, locale },
        createElement(PaymentLinkPage, { collectionId: view.id, orderId: "order_1", initialLink: view, className: "shop-page", ...props }))
    )

  it("shows what is owed and the pay button, in the shopper's language, with the store's class names", () => {
    const html = render(payable(), {}, "de")
    expect(html).toContain("Zahlung für Bestellung #42")
    expect(html).toContain('data-amount="14.58"')
    expect(html).toContain("14,58\u00a0€")
    expect(html).toContain("10,00\u00a0€")
    expect(html).toContain("14,58\u00a0€ auf der sicheren Zahlungsseite bezahlen</button>")
    expect(html).toContain('class="pne-link shop-page"')
  })

  it("a paid, a canceled and a missing link say so in words, with no pay button", () => {
    for (const [view, text] of [[paid(), MESSAGES.en.linkPaid], [canceled(), MESSAGES.en.linkCanceled], [notFoundLink("pay_col_x"), MESSAGES.en.linkNotFound]] as const) {
      const html = render(view)
      expect(html).toContain(text)
      expect(html).not.toContain("<button")
    }
    expect(render(paid(), {}, "ru")).toContain(MESSAGES.ru.linkPaid)
  })

  it("back from the hosted page while the bank decides: 'confirming', no pay button", () => {
    const open = payable({ session: { id: "payses_1", provider_id: "pp_payneteasy_payneteasy", status: "pending", redirect_url: "https://gate.example/p" } })
    const html = render(open, { returned: true })
    expect(html).toContain(MESSAGES.en.linkConfirming)
    expect(html).not.toContain("<button")
  })
})

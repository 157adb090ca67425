/**
 * The storefront kit's pure parts: card checks, texts per language, reading a session's next step and the return
 * URL, waitForOrder's loop and the return step (over a scripted `client.fetch`: the kit takes the sdk as a parameter,
 * its own seam, and makes every request through that one method), the server-action carrier, and the method list.
 */
import fc from "fast-check"
import {
  answerStoreRequest, cardBrand, cardErrors, createMessages, createReturnHandler, declineMessage, declineReason, errorOutcome, isKitRequest, isPaynetEasy,
  luhnValid, MESSAGES, nextStep, parseExpiry, payerFromCart, paymentSessionData, readReturnParams, returnNotice, sdkFromServerAction, startPayment,
  waitForOrder, type StoreAnswer, type StoreRequest, type StoreRequestInit, type StoreSdk,
} from ".."
import { paymentMethodInfo, paynetEasyPaymentInfo } from "../methods"

/** A js-sdk stand-in: every `client.fetch` is recorded and answered by `answer` (which may throw, as the js-sdk does). */
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

describe("card checks", () => {
  it("Luhn: the sandbox's test Visa passes, any one-digit change fails", () => {
    expect(luhnValid("4444 5555 6666 1111")).toBe(true)
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 9 }), (pos, delta) => {
        const d = "4444555566661111".split("")
        d[pos] = String((Number(d[pos]) + delta) % 10)
        return luhnValid(d.join("")) === false
      })
    )
    expect(luhnValid("1234")).toBe(false)
  })

  it("brand by prefix, expiry parsing, errors per field", () => {
    expect(cardBrand("4444555566661111")).toBe("visa")
    expect(cardBrand("5500000000000004")).toBe("mastercard")
    expect(cardBrand("2200123412341234")).toBe("mir")
    expect(cardBrand("378282246310005")).toBe("amex")
    expect(parseExpiry("1/30")).toEqual({ month: "01", year: "2030" })
    expect(parseExpiry("12 / 2031")).toEqual({ month: "12", year: "2031" })
    expect(parseExpiry("13/30")).toBeUndefined()
    const now = new Date(Date.UTC(2026, 10, 25))
    expect(cardErrors({ number: "4444555566661111", expiry: "11/26", cvv: "123", holder: "J D" }, now)).toEqual([])
    expect(cardErrors({ number: "4444555566661112", expiry: "10/26", cvv: "12", holder: " " }, now)).toEqual(["number", "expiry", "cvv", "holder"])
    expect(cardErrors({ number: "378282246310005", expiry: "12/30", cvv: "123", holder: "A" }, now)).toEqual(["cvv"])
  })
})

describe("messages", () => {
  it("every language has every text; region tags fall back to the language, unknown ones to English; overrides win", () => {
    for (const lang of ["de", "ru"] as const) expect(Object.keys(MESSAGES[lang]).sort()).toEqual(Object.keys(MESSAGES.en).sort())
    expect(createMessages("de-AT").payAgain).toBe("Erneut versuchen")
    expect(createMessages("fr").payAgain).toBe("Try again")
    expect(createMessages("ru", { payAgain: "Ещё раз" }).payAgain).toBe("Ещё раз")
  })

  it("a known gateway code gets the kit's text, an unknown one the gateway's reason", () => {
    const en = createMessages("en")
    expect(declineMessage(en, { code: "116", message: "Insufficient funds (sandbox)" })).toBe("The payment was declined: Insufficient funds on the card.")
    expect(declineMessage(createMessages("de"), { code: "116" })).toBe("Die Zahlung wurde abgelehnt: Die Karte ist nicht ausreichend gedeckt.")
    expect(declineMessage(en, { code: "999", message: "Do not honor" })).toBe("The payment was declined: Do not honor")
    expect(declineMessage(en, null)).toBe("The payment was declined.")
  })

  it("a decline reads as one sentence: the gateway's own 'Declined:' lead-in is not repeated after the kit's", () => {
    const en = createMessages("en")
    expect(declineMessage(en, { code: "100", message: "Declined: insufficient funds" })).toBe("The payment was declined: insufficient funds")
    expect(declineMessage(en, { message: "Declined by issuer" })).toBe("The payment was declined.")
    expect(declineMessage(en, { message: "declined" })).toBe("The payment was declined.")
    for (const lang of ["en", "de", "ru"] as const) {
      for (const message of ["Declined: pick-up card (stolen)", "DECLINED - do not honor", "Declined by sandbox steering"]) {
        const text = declineMessage(createMessages(lang), { code: "9999", message })
        expect([lang, message, text.match(/declined/gi)?.length ?? 0]).toEqual([lang, message, lang === "en" ? 1 : 0])
        expect(text.split(/[.!?](\s|$)/).filter((p) => p && p.trim()).length).toBeLessThanOrEqual(1)
      }
    }
  })

  it("an error while paying never shows an internal id; one that may hide a payment in progress says we are confirming it and does not invite paying again", () => {
    const en = createMessages("en")
    const err = (message: string, status?: number) => Object.assign(new Error(message), status === undefined ? {} : { status })
    for (const e of [
      err("Session: payses_01KAQ3T0ZK8 was not authorized with the provider.", 400),
      err("Failed to fetch"),
      err("Internal Server Error", 500),
      err("Gateway Timeout", 504),
    ]) {
      const out = errorOutcome(en, e)
      expect([e.message, out]).toEqual([e.message, { status: "pending", message: en.notConfirmed }])
    }
    expect(en.notConfirmed).toMatch(/confirming your payment.*do not pay again/i)
    for (const lang of ["en", "de", "ru"] as const) expect(MESSAGES[lang].notConfirmed).not.toContain(MESSAGES[lang].payAgain)
    const refused = errorOutcome(en, err("Payment session payses_01KAQ3 of cart cart_01KB was not found (order_01X, pay_01Y)", 404))
    expect(refused.status).toBe("error")
    expect(refused.message).not.toMatch(/payses_|cart_|order_|pay_/)
    expect(refused.message.length).toBeGreaterThan(0)
  })
})

describe("sessions and returns", () => {
  const s = (status: string, data: Record<string, unknown>) => ({ id: "ps_1", provider_id: "pp_payneteasy_x", status, data })
  it("nextStep reads status and data", () => {
    expect(nextStep(s("pending", { flow: "hosted", redirectUrl: "https://gw/form/1" }))).toMatchObject({ type: "redirect", url: "https://gw/form/1" })
    expect(nextStep(s("pending", { flow: "direct" }))).toMatchObject({ type: "card" })
    expect(nextStep(s("pending", { flow: "direct", orderId: "9", gatewayStatus: "processing" }))).toMatchObject({ type: "pending" })
    expect(nextStep(s("requires_more", { flow: "direct", nextAction: { type: "html", html: "<form>" } }))).toMatchObject({ type: "html", html: "<form>" })
    expect(nextStep(s("requires_more", { flow: "direct", nextAction: { type: "redirect", url: "https://acs" } }))).toMatchObject({ type: "redirect" })
    expect(nextStep(s("authorized", {}))).toMatchObject({ type: "complete" })
    expect(nextStep(s("error", { error: { code: "116", message: "no funds" } }))).toMatchObject({ type: "declined", error: { code: "116" } })
    expect(isPaynetEasy("pp_payneteasy_direct")).toBe(true)
    expect(isPaynetEasy("pp_stripe_stripe")).toBe(false)
  })

  it("payerFromCart takes the billing address and drops empty fields", () => {
    const cart = { id: "c", email: "a@b.c", billing_address: { first_name: "A", city: "Riga", phone: null } }
    expect(payerFromCart(cart, { phone: "+1" })).toEqual({ email: "a@b.c", first_name: "A", city: "Riga", phone: "+1" })
  })

  it("readReturnParams reads the return route's query", () => {
    expect(readReturnParams("https://shop/return?cart_id=cart_1&payment_session_id=ps_1&gateway_status=approved&order_id=order_1")).toEqual({
      cartId: "cart_1", paymentSessionId: "ps_1", gatewayStatus: "approved", sessionStatus: undefined, orderId: "order_1",
    })
  })
})

describe("waitForOrder", () => {
  function scripted(completes: Array<unknown>, sessions: Array<{ status: string; data?: unknown }>) {
    const calls: string[] = []
    const { sdk } = fetchSdk((path, init) => {
      if (init.method === "POST" && path === "/store/carts/c/complete") {
        calls.push("complete")
        const next = completes.shift()
        if (next instanceof Error) throw next
        return next
      }
      if ((init.method ?? "GET") === "GET" && path === "/store/carts/c") {
        calls.push("retrieve")
        const session = sessions.shift()
        return { cart: { id: "c", payment_collection: { id: "pc", payment_sessions: [{ id: "ps", provider_id: "pp_payneteasy_x", ...session }] } } }
      }
      throw new Error(`unexpected ${init.method} ${path}`)
    })
    return { sdk, calls }
  }
  const notAuthorized = failure("Payment session was not authorized with the provider", 400)
  const busy = failure("in progress", 409)

  it("waits while the session is pending (and through a 409), then returns the order", async () => {
    const { sdk, calls } = scripted([notAuthorized, busy, { type: "order", order: { id: "order_1" } }], [{ status: "pending" }])
    await expect(waitForOrder(sdk, "c", { initialDelayMs: 1 })).resolves.toEqual({ type: "order", order: { id: "order_1" } })
    expect(calls).toEqual(["complete", "retrieve", "complete", "complete"])
  })

  it("a declined session ends the wait with the gateway's reason", async () => {
    const { sdk } = scripted([notAuthorized], [{ status: "error", data: { error: { code: "116", message: "no funds" } } }])
    await expect(waitForOrder(sdk, "c", { initialDelayMs: 1 })).resolves.toEqual({ type: "declined", error: { code: "116", message: "no funds" }, sessionId: "ps" })
  })

  it("the time limit ends as pending, never as declined", async () => {
    const { sdk } = scripted(Array(50).fill(notAuthorized), Array(50).fill({ status: "pending" }))
    await expect(waitForOrder(sdk, "c", { initialDelayMs: 5, timeoutMs: 30 })).resolves.toEqual({ type: "pending", sessionId: "ps" })
  })
})

describe("sessions through client.fetch", () => {
  const cart = {
    id: "cart_1", email: "p@example.com",
    billing_address: { first_name: "Jane", address_1: "1 Main St", city: "Riga", postal_code: "LV-1010", country_code: "lv", phone: "+371" },
  }

  it("paymentSessionData is plain JSON: the payer, save_card and card_id when asked, nothing secret", () => {
    const data = paymentSessionData(cart, { saveCard: true, cardId: "pnecard_1" })
    expect(JSON.parse(JSON.stringify(data))).toEqual(data)
    expect(data).toEqual({ payer: payerFromCart(cart), save_card: true, card_id: "pnecard_1" })
    expect(paymentSessionData(cart)).toEqual({ payer: payerFromCart(cart) })
  })

  it("startPayment makes the payment collection when the cart has none, then the session, through the sdk's one method", async () => {
    const { sdk, calls } = fetchSdk((path) =>
      path === "/store/payment-collections"
        ? { payment_collection: { id: "pc_1" } }
        : { payment_collection: { id: "pc_1", payment_sessions: [{ id: "ps_1", provider_id: "pp_payneteasy_payneteasy", status: "pending" }] } }
    )
    const session = await startPayment(sdk, cart, { providerId: "pp_payneteasy_payneteasy", headers: { authorization: "Bearer t" } })
    expect(session.id).toBe("ps_1")
    expect(calls).toEqual([
      { path: "/store/payment-collections", init: { method: "POST", body: { cart_id: "cart_1" }, headers: { authorization: "Bearer t" } } },
      {
        path: "/store/payment-collections/pc_1/payment-sessions",
        init: { method: "POST", body: { provider_id: "pp_payneteasy_payneteasy", data: { payer: payerFromCart(cart) } }, headers: { authorization: "Bearer t" } },
      },
    ])
  })
})

describe("server-action carrier", () => {
  it("only the kit's own requests pass; the card route and anything else are refused", () => {
    for (const ok of [
      { method: "POST", path: "/store/payment-collections" },
      { method: "POST", path: "/store/payment-collections/pc_1/payment-sessions" },
      { method: "POST", path: "/store/carts/cart_1/complete" },
      { method: "GET", path: "/store/carts/cart_1" },
      { method: "GET", path: "/store/payneteasy/cards" },
      { method: "DELETE", path: "/store/payneteasy/cards/pnecard_1" },
      { method: "POST", path: "/store/payneteasy/payment-sessions/ps_1/saved-card" },
    ] as const) expect([ok, isKitRequest(ok)]).toEqual([ok, true])
    for (const no of [
      { method: "POST", path: "/store/payneteasy/payment-sessions/ps_1/card" },
      { method: "GET", path: "/store/customers/me" },
      { method: "POST", path: "/store/carts/cart_1" },
      { method: "DELETE", path: "/store/payneteasy/cards" },
      { method: "GET", path: "/store/carts/cart_1/../../customers/me" },
      { method: "GET", path: "https://evil.example/store/carts/c" },
      { method: "POST", path: "/admin/orders" },
    ] as const) expect([no, isKitRequest(no)]).toEqual([no, false])
  })

  it("a refused request is answered 403 and sends nothing", async () => {
    const { sdk, calls } = fetchSdk(() => ({}))
    const answer = await answerStoreRequest(sdk, { method: "POST", path: "/store/payneteasy/payment-sessions/ps_1/card", body: { card: {} } })
    expect(answer).toEqual({ ok: false, status: 403, message: expect.any(String) })
    expect(calls).toEqual([])
  })

  it("round trip: the server adds its headers, a failure comes back with its status, an order calls onOrder", async () => {
    const orders: string[] = []
    const { sdk: server, calls } = fetchSdk((path) => {
      if (path.endsWith("/saved-card")) throw failure("Declined", 402)
      if (path.endsWith("/complete")) return { type: "order", order: { id: "order_1" } }
      return { cards: [{ id: "pnecard_1" }] }
    })
    // the server action, as a storefront writes it; its argument and answer cross the wire as JSON
    const action = async (request: StoreRequest): Promise<StoreAnswer> =>
      JSON.parse(JSON.stringify(await answerStoreRequest(server, JSON.parse(JSON.stringify(request)), {
        headers: { authorization: "Bearer secret" },
        onOrder: (o) => orders.push(o.id),
      })))
    const browser = sdkFromServerAction(action)
    await expect(browser.client.fetch("/store/payneteasy/cards")).resolves.toEqual({ cards: [{ id: "pnecard_1" }] })
    await expect(browser.client.fetch("/store/payneteasy/payment-sessions/ps_1/saved-card", { method: "POST", body: {} }))
      .rejects.toMatchObject({ status: 402, message: "Declined" })
    await expect(browser.client.fetch("/store/carts/c/complete", { method: "POST", headers: { authorization: "Bearer forged" } }))
      .resolves.toEqual({ type: "order", order: { id: "order_1" } })
    expect(orders).toEqual(["order_1"])
    expect(calls.map((c) => c.init.headers)).toEqual(Array(3).fill({ authorization: "Bearer secret" }))
    await expect(browser.client.fetch("/store/customers/me")).rejects.toMatchObject({ status: 403 })
  })
})

describe("reason words and the checkout notice", () => {
  it("a known gateway code becomes a word, anything else 'declined'; the notice is in the shopper's language", () => {
    expect(declineReason({ code: "116", message: "no funds at payses_01ABCDEFG" })).toBe("insufficient_funds")
    expect(declineReason({ code: "9999" })).toBe("declined")
    expect(declineReason(undefined)).toBe("declined")
    const de = createMessages("de")
    expect(returnNotice("?step=payment&payment=declined&reason=insufficient_funds", de)).toBe("Die Zahlung wurde abgelehnt: Die Karte ist nicht ausreichend gedeckt.")
    expect(returnNotice(new URLSearchParams("payment=declined&reason=<script>"), de)).toBe(de.declined)
    expect(returnNotice("payment=declined&reason=constructor", createMessages("en"))).toBe("The payment was declined.")
    expect(returnNotice("payment=pending", de)).toBe(de.notConfirmed)
    expect(returnNotice("step=payment", de)).toBeUndefined()
    expect(returnNotice(null, de)).toBeUndefined()
  })
})

describe("createReturnHandler", () => {
  const sdkWith = (complete: () => unknown, status = "error") =>
    fetchSdk((path) =>
      path.endsWith("/complete")
        ? complete()
        : { cart: { id: "c", payment_collection: { id: "pc", payment_sessions: [{ id: "ps", provider_id: "pp_payneteasy_x", status, data: { error: { code: "116" } } }] } } }
    )
  const landed = (url: string) => new Request(`${url}&pne_landed=1`)
  const notAuthorized = () => {
    throw failure("not authorized", 400)
  }

  it("first answers a landing page that goes on to the same URL from the storefront's own page, touching nothing", async () => {
    const { sdk, calls } = sdkWith(() => ({ type: "order", order: { id: "order_9" } }))
    const settled: unknown[] = []
    const res = await createReturnHandler({ sdk, onSettled: (o) => settled.push(o) })(new Request("https://shop.test/dk/payneteasy/return?cart_id=c&gateway_status=approved"))
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('location.replace("/dk/payneteasy/return?cart_id=c&gateway_status=approved&pne_landed=1")')
    expect(calls).toEqual([])
    expect(settled).toEqual([])
  })

  it("then 303 to the order page (default: ../order/<id>/confirmed), onSettled first, with the server's headers", async () => {
    const { sdk, calls } = sdkWith(() => ({ type: "order", order: { id: "order_9" } }))
    const settled: string[] = []
    const res = await createReturnHandler({
      sdk, headers: async () => ({ authorization: "Bearer t" }), onSettled: (o) => settled.push(o.type),
    })(landed("https://shop.test/dk/payneteasy/return?cart_id=c"))
    expect([res.status, res.headers.get("location")]).toEqual([303, "https://shop.test/dk/order/order_9/confirmed"])
    expect(settled).toEqual(["order"])
    expect(calls[0].init.headers).toEqual({ authorization: "Bearer t" })
  })

  it("a decline goes back to checkout with the reason word, a pending one (or a failure) as pending", async () => {
    const handler = (sdk: StoreSdk) => createReturnHandler({ sdk, timeoutMs: 20 })
    const declined = await handler(sdkWith(notAuthorized).sdk)(landed("https://shop.test/dk/payneteasy/return?cart_id=c"))
    expect(declined.headers.get("location")).toBe("https://shop.test/dk/checkout?step=payment&payment=declined&reason=insufficient_funds")
    const pending = await handler(sdkWith(notAuthorized, "pending").sdk)(landed("https://shop.test/dk/payneteasy/return?cart_id=c"))
    expect(pending.headers.get("location")).toBe("https://shop.test/dk/checkout?step=payment&payment=pending")
    const broken = await handler(sdkWith(() => { throw failure("Bad Gateway", 502) }).sdk)(landed("https://shop.test/dk/payneteasy/return?cart_id=c"))
    expect(broken.headers.get("location")).toBe("https://shop.test/dk/checkout?step=payment&payment=pending")
  })

  it("the storefront's own URLs when given", async () => {
    const { sdk } = sdkWith(notAuthorized)
    const res = await createReturnHandler({
      sdk, timeoutMs: 20, orderUrl: ({ order }) => `/o/${order.id}`, checkoutUrl: (o, p) => `/checkout?payment=${o.type}&cart=${p.cartId}`,
    })(landed("https://shop.test/r?cart_id=c"))
    expect(res.headers.get("location")).toBe("https://shop.test/checkout?payment=declined&cart=c")
  })
})

describe("payment method list (storefront/methods)", () => {
  it("a title per registration, the default otherwise, nothing for other providers", () => {
    const titles = { pp_payneteasy_payneteasy: "Card (secure payment page)", pp_payneteasy_direct: "Card" }
    expect(paymentMethodInfo("pp_payneteasy_direct", titles)?.title).toBe("Card")
    expect(paymentMethodInfo("pp_payneteasy_other", titles)?.title).toBe("Card (PaynetEasy)")
    expect(paymentMethodInfo("pp_payneteasy_other", createMessages("de"))?.title).toBe("Karte (PaynetEasy)")
    expect(paymentMethodInfo("pp_stripe_stripe", titles)).toBeUndefined()
    const map = paynetEasyPaymentInfo(titles)
    expect(Object.fromEntries(Object.entries(map).map(([k, v]) => [k, v.title]))).toEqual(titles)
    expect(() => paynetEasyPaymentInfo({ pp_stripe_stripe: "Card" })).toThrow(/not a PaynetEasy provider id/)
  })
})

/**
 * The storefront kit's pure parts: card checks, texts per language, reading a session's next step and the return
 * URL, and waitForOrder's loop (over a scripted js-sdk: the kit takes the sdk as a parameter, its own seam).
 */
import fc from "fast-check"
import {
  cardBrand, cardErrors, createMessages, createReturnHandler, declineMessage, errorOutcome, isPaynetEasy, luhnValid, MESSAGES, nextStep, parseExpiry, payerFromCart,
  readReturnParams, waitForOrder, type StoreSdk,
} from ".."

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
    const sdk = {
      store: {
        cart: {
          complete: async () => {
            calls.push("complete")
            const next = completes.shift()
            if (next instanceof Error) throw next
            return next
          },
          retrieve: async () => {
            calls.push("retrieve")
            const session = sessions.shift()
            return { cart: { id: "c", payment_collection: { id: "pc", payment_sessions: [{ id: "ps", provider_id: "pp_payneteasy_x", ...session }] } } }
          },
        },
      },
      client: {},
    } as unknown as StoreSdk
    return { sdk, calls }
  }
  const notAuthorized = Object.assign(new Error("Payment session was not authorized with the provider"), { status: 400 })
  const busy = Object.assign(new Error("in progress"), { status: 409 })

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

describe("createReturnHandler", () => {
  const sdkWith = (complete: () => Promise<unknown>, status = "error") =>
    ({
      store: {
        cart: {
          complete,
          retrieve: async () => ({
            cart: { id: "c", payment_collection: { id: "pc", payment_sessions: [{ id: "ps", provider_id: "pp_payneteasy_x", status, data: { error: { code: "116" } } }] } },
          }),
        },
      },
      client: {},
    }) as unknown as StoreSdk
  const handler = (sdk: StoreSdk) =>
    createReturnHandler({
      sdk,
      timeoutMs: 20,
      orderUrl: ({ order }) => `/order/${order.id}/confirmed`,
      checkoutUrl: (o, p) => `/checkout?payment=${o.type}&cart=${p.cartId}`,
    })

  it("303 to the order page once the cart completes, to checkout with the outcome otherwise", async () => {
    const ok = await handler(sdkWith(async () => ({ type: "order", order: { id: "order_9" } })))(new Request("https://shop.test/de/payneteasy/return?cart_id=c"))
    expect([ok.status, ok.headers.get("location")]).toEqual([303, "https://shop.test/order/order_9/confirmed"])
    const notAuthorized = async () => {
      throw Object.assign(new Error("not authorized"), { status: 400 })
    }
    const declined = await handler(sdkWith(notAuthorized))(new Request("https://shop.test/r?cart_id=c"))
    expect(declined.headers.get("location")).toBe("https://shop.test/checkout?payment=declined&cart=c")
    const pending = await handler(sdkWith(notAuthorized, "pending"))(new Request("https://shop.test/r?cart_id=c"))
    expect(pending.headers.get("location")).toBe("https://shop.test/checkout?payment=pending&cart=c")
  })
})

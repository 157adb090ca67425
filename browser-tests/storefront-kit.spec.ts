/**
 * The storefront kit in a real Chromium, against the demo shop page (built only from the kit), a real Medusa app with
 * the built plugin, and the gateway sandbox over HTTP. Each flow ends in exactly one new order with the cart's amount
 * (read through the admin API), and the card number appears in no request the pages make except the one to the
 * plugin's card route (direct flow) or the gateway's own card page (hosted flow).
 */
import type { Page, Response } from "playwright-core"
import { createMessages, format } from "../src/storefront"
import { answerChallenge, fillCardAndPay, VISA } from "./helpers/shop"
import { DIRECT, HOSTED, SHOP_ORDER_DESCRIPTION, useStorefrontApp, type StorefrontApp } from "./helpers/storefront-app"

const app = useStorefrontApp()
const en = createMessages("en")
/** The cart's amount as the kit shows it in `lang` (Intl, as in the page). */
const amount = (lang = "en") => new Intl.NumberFormat(lang, { style: "currency", currency: "EUR" }).format(10.42)

interface AdminOrder {
  id: string
  display_id: number
  total: number
  currency_code: string
  payment_collections?: Array<{ payments?: Array<{ provider_id: string; amount: number }> }>
}

async function orders(a: StorefrontApp): Promise<AdminOrder[]> {
  const { data } = await a.admin.get<{ orders: AdminOrder[] }>(
    "/admin/orders?fields=id,display_id,total,currency_code,*payment_collections,*payment_collections.payments&order=-created_at&limit=200"
  )
  return data.orders
}

/** Opens the shop (a new cart) and waits for the cart; returns its id. */
async function openShop(page: Page, shopUrl: string, lang?: string): Promise<string> {
  await page.goto(lang ? `${shopUrl}?lang=${lang}` : shopUrl)
  const cart = page.locator("#cart")
  await page.locator("#cart, #shop-error").first().waitFor()
  if (await page.locator("#shop-error").isVisible()) throw new Error(`the shop failed: ${await page.locator("#shop-error").textContent()}`)
  await expect(page.locator("#cart-total").textContent()).resolves.toBe(amount(lang))
  return (await cart.getAttribute("data-cart-id"))!
}

async function typeCard(page: Page, cvv: string, t = en, lang = "en") {
  await page.getByLabel(t.cardNumber).fill("4444 5555 6666 1111")
  await page.getByLabel(t.expiry).fill("12/30")
  await page.getByLabel(t.cvv).fill(cvv)
  await page.getByLabel(t.holder).fill("Jane Payer")
  await page.getByRole("button", { name: format(t.payButton, { amount: amount(lang) }) }).click()
}

/** The shop shows the order; it is the one new order since `before`, paid in full by `provider`. */
async function expectOneNewOrder(a: StorefrontApp, before: AdminOrder[], provider: string): Promise<AdminOrder> {
  const shown = a.page.locator("#order")
  await shown.waitFor({ timeout: 45_000 })
  const shownId = await shown.getAttribute("data-order-id")
  const after = await orders(a)
  const fresh = after.filter((o) => !before.some((b) => b.id === o.id))
  expect(fresh.map((o) => o.id)).toEqual([shownId])
  expect(fresh[0]).toMatchObject({ total: 10.42, currency_code: "eur" })
  const payments = fresh[0].payment_collections!.flatMap((c) => c.payments ?? [])
  expect(payments.map((p) => [p.provider_id, p.amount])).toEqual([[provider, 10.42]])
  await expect(shown.textContent()).resolves.toMatch(/10[.,]42/)
  return fresh[0]
}

/** The requests that carried the card number: only those allowed. */
function cardCarriers(a: StorefrontApp) {
  return a.requests.filter((r) => (r.url + r.body).includes(VISA) || (r.url + r.body).includes("4444%205555") || r.body.includes("4444 5555"))
}
const CARD_ROUTE = /\/store\/payneteasy\/payment-sessions\/[^/]+\/card$/

it("hosted: the button sends the shopper to the gateway's page; the return page shows the one order", async () => {
  const a = app()
  const before = await orders(a)
  await openShop(a.page, a.shopUrl)
  await a.page.getByLabel(/gateway's payment page/).check()
  await a.page.getByRole("button", { name: format(en.payOnPaymentPage, { amount: "€10.42" }) }).click()
  await a.page.waitForURL((u) => u.href.startsWith(`${a.sandbox.url}/form/`))
  await fillCardAndPay(a.page, { cvv2: "123" })
  await a.page.waitForURL((u) => u.pathname.endsWith("/payneteasy-demo/thank-you"))
  await expectOneNewOrder(a, before, HOSTED)
  // The card went to the gateway's own page only.
  expect(cardCarriers(a).map((r) => new URL(r.url).origin)).toEqual([a.sandbox.origin])
})

it("direct: the card form posts the card only to the card route, 3-D Secure challenge, then the one order", async () => {
  const a = app()
  const before = await orders(a)
  await openShop(a.page, a.shopUrl)
  await a.page.getByLabel(/card form on this page/).check()
  await typeCard(a.page, "321")
  await answerChallenge({ page: a.page, sandbox: a.sandbox })
  await a.page.waitForURL((u) => u.pathname.endsWith("/payneteasy-demo/thank-you"))
  await expectOneNewOrder(a, before, DIRECT)
  const carriers = cardCarriers(a)
  expect(carriers.map((r) => [r.method, r.url.replace(a.backendUrl, "")])).toEqual([["POST", expect.stringMatching(CARD_ROUTE)]])
  expect(carriers[0].url.startsWith(a.backendUrl)).toBe(true)
})

it("direct, in German: a declined card shows the reason; the card typed again pays (one order)", async () => {
  const a = app()
  const de = createMessages("de")
  const before = await orders(a)
  await openShop(a.page, a.shopUrl, "de")
  await a.page.getByLabel(/card form on this page/).check()
  await typeCard(a.page, "116", de, "de")
  const alert = a.page.locator(".pne-status-declined")
  await alert.waitFor()
  await expect(alert.textContent()).resolves.toBe(format(de.declinedWithReason, { reason: de.reason_insufficient_funds }))
  expect(await orders(a)).toHaveLength(before.length)
  // The form forgot the card: number and CVV are empty again.
  await expect(a.page.getByLabel(de.cardNumber).inputValue()).resolves.toBe("")
  await expect(a.page.getByLabel(de.cvv).inputValue()).resolves.toBe("")
  await typeCard(a.page, "123", de, "de")
  await expectOneNewOrder(a, before, DIRECT)
  expect(cardCarriers(a).map((r) => r.url.replace(a.backendUrl, ""))).toEqual([expect.stringMatching(CARD_ROUTE), expect.stringMatching(CARD_ROUTE)])
})

it("hosted decline: the return page shows the reason, Try again goes to a new payment page, which pays (one order)", async () => {
  const a = app()
  const before = await orders(a)
  await openShop(a.page, a.shopUrl)
  await a.page.getByLabel(/gateway's payment page/).check()
  await a.page.getByRole("button", { name: format(en.payOnPaymentPage, { amount: "€10.42" }) }).click()
  await a.page.waitForURL((u) => u.href.startsWith(`${a.sandbox.url}/form/`))
  const firstPage = a.page.url()
  await fillCardAndPay(a.page, { cvv2: "116" })
  await a.page.waitForURL((u) => u.pathname.endsWith("/payneteasy-demo/thank-you"))
  const alert = a.page.locator(".pne-status-declined")
  await alert.waitFor({ timeout: 45_000 })
  await expect(alert.textContent()).resolves.toBe(format(en.declinedWithReason, { reason: en.reason_insufficient_funds }))
  await a.page.getByRole("button", { name: en.payAgain }).click()
  await a.page.waitForURL((u) => u.href.startsWith(`${a.sandbox.url}/form/`) && u.href !== firstPage)
  await fillCardAndPay(a.page, { cvv2: "123" })
  await a.page.waitForURL((u) => u.pathname.endsWith("/payneteasy-demo/thank-you"))
  await expectOneNewOrder(a, before, HOSTED)
})

it("the shopper's return arriving after the callback completed the order shows that order", async () => {
  const a = app()
  const before = await orders(a)
  await openShop(a.page, a.shopUrl)
  // Hold the browser's POST to the backend's return route until the gateway's callback has made the order.
  let madeByCallback: string | undefined
  await a.page.route(`${a.backendUrl}/payneteasy/return**`, async (route) => {
    const deadline = Date.now() + 30_000
    while (!madeByCallback && Date.now() < deadline) {
      const fresh = (await orders(a)).filter((o) => !before.some((b) => b.id === o.id))
      madeByCallback = fresh[0]?.id
      if (!madeByCallback) await new Promise((r) => setTimeout(r, 200))
    }
    await route.continue()
  })
  await a.page.getByLabel(/gateway's payment page/).check()
  await a.page.getByRole("button", { name: format(en.payOnPaymentPage, { amount: "€10.42" }) }).click()
  await a.page.waitForURL((u) => u.href.startsWith(`${a.sandbox.url}/form/`))
  await fillCardAndPay(a.page, { cvv2: "123" })
  await a.page.waitForURL((u) => u.pathname.endsWith("/payneteasy-demo/thank-you"))
  expect(madeByCallback).toBeDefined()
  // The return route already knew the order when it sent the shopper on.
  expect(new URL(a.page.url()).searchParams.get("order_id")).toBe(madeByCallback)
  const order = await expectOneNewOrder(a, before, HOSTED)
  expect(order.id).toBe(madeByCallback)
})

it("saved card: a signed-in shopper keeps the card at checkout, then pays the next cart with it (no card number sent)", async () => {
  const a = app()
  const before = await orders(a)
  await openShop(a.page, a.shopUrl)
  await a.page.getByLabel("Email").fill(`saver-${Date.now()}@payneteasy.test`)
  await a.page.getByLabel("Password").fill("saved-card-password")
  await a.page.getByRole("button", { name: "Sign in" }).click()
  await a.page.locator("#customer").waitFor()
  await a.page.locator("#cart").waitFor()
  await a.page.getByLabel(/card form on this page/).check()
  await a.page.getByLabel(en.saveCard).check()
  await typeCard(a.page, "123")
  const first = await expectOneNewOrder(a, before, DIRECT)

  const sentBefore = a.requests.length
  await a.page.getByRole("button", { name: "Shop again" }).click()
  await a.page.locator("#cart").waitFor()
  // The card is kept once the order is placed (the plugin's order.placed subscriber): look until it is listed.
  const payWithIt = a.page.getByRole("button", { name: /•••• 1111/ })
  for (let i = 0; i < 60 && !(await payWithIt.isVisible()); i++) {
    await a.page.getByLabel(/gateway's payment page/).check()
    await a.page.getByLabel(en.savedCards).check()
    await a.page.locator(".pne-saved, .pne-saved-empty").waitFor()
    if (!(await payWithIt.isVisible())) await new Promise((r) => setTimeout(r, 500))
  }
  await payWithIt.click()
  await expectOneNewOrder(a, [...before, first], DIRECT)
  expect(a.requests.slice(sentBefore).filter((r) => (r.url + r.body).includes(VISA))).toEqual([])
  expect(cardCarriers(a)).toHaveLength(1)
})

/** The page's visible text carries none of Medusa's or the plugin's internal ids. */
const INTERNAL_ID = /\b(payses|pay|order|cart|pnerp|pnecb)_[0-9A-Za-z]{4,}/
async function expectNoIds(page: Page, where: string) {
  const visible = await page.locator("body").innerText()
  expect([where, visible.match(INTERNAL_ID)?.[0] ?? null]).toEqual([where, null])
}

it("the shopper's words: the gateway's page names the shop's order description, not an id; neither it nor the return page shows an internal id", async () => {
  const a = app()
  const before = await orders(a)
  await openShop(a.page, a.shopUrl)
  await a.page.getByLabel(/gateway's payment page/).check()
  await a.page.getByRole("button", { name: format(en.payOnPaymentPage, { amount: "€10.42" }) }).click()
  await a.page.waitForURL((u) => u.href.startsWith(`${a.sandbox.url}/form/`))
  await expect(a.page.locator("#order-desc").textContent()).resolves.toBe(SHOP_ORDER_DESCRIPTION)
  await expectNoIds(a.page, "the gateway's page")
  await fillCardAndPay(a.page, { cvv2: "123" })
  await a.page.waitForURL((u) => u.pathname.endsWith("/payneteasy-demo/thank-you"))
  await expectOneNewOrder(a, before, HOSTED)
  await expectNoIds(a.page, "the return page")
})

it("a decline the kit has no text for reads as one sentence (the gateway's own 'Declined' is not repeated)", async () => {
  const a = app()
  await openShop(a.page, a.shopUrl)
  await a.page.getByLabel(/card form on this page/).check()
  await typeCard(a.page, "999") // the sandbox's generic decline: "Declined by issuer"
  const alert = a.page.locator(".pne-status-declined")
  await alert.waitFor()
  await expect(alert.textContent()).resolves.toBe(en.declined)
  await expectNoIds(a.page, "the declined card form")
})

it("a payment still unresolved when the kit stops waiting says we are confirming it, offers no way to pay again, and shows no id", async () => {
  const a = app()
  const before = await orders(a)
  // The page's clock is Playwright's: the kit's 60 s of waiting for the bank pass when the test says so, not in 60 real
  // seconds (issue 38). Its requests still go to the real app, and every attempt and pause still runs in order.
  await a.page.clock.install()
  await openShop(a.page, a.shopUrl)
  await a.page.getByLabel(/card form on this page/).check()
  await typeCard(a.page, "217") // the sandbox keeps this one `unknown`: the bank never decides
  // The kit has asked and is waiting ("confirming…"). Its minute then goes by one pause at a time (4 s, its longest): each
  // pause ends, the next attempt (completion refused, the session read) is answered, and the kit starts its next pause.
  await a.page.locator(".pne-status-working").filter({ hasText: en.confirming }).waitFor()
  const status = a.page.locator(".pne-status-pending")
  const sessionRead = (r: Response) => r.request().method() === "GET" && decodeURIComponent(r.url()).includes("*payment_collection.payment_sessions")
  // The page's time of each attempt's session read, as the kit's own clock says (the faked Date.now()).
  const askedAt: number[] = []
  const started = await a.page.evaluate(() => Date.now())
  for (let pause = 0; pause < 30 && !(await status.isVisible()); pause++) {
    // However slow the machine: the next pause starts only once this attempt is answered, or the kit has given up.
    const answered = a.page.waitForResponse(sessionRead, { timeout: 90_000 }).then(async () => askedAt.push(await a.page.evaluate(() => Date.now())), () => undefined)
    const gaveUp = status.waitFor({ timeout: 90_000 }).catch(() => undefined)
    await a.page.clock.runFor(4_000)
    await Promise.race([answered, gaveUp])
    await a.page.waitForTimeout(200) // the kit schedules its next pause after reading the answer
  }
  await status.waitFor({ timeout: 30_000 })
  // It kept asking through its minute (pauses of 0.5, 1, 2, then 4 s: about 17 attempts), not once: many attempts, the
  // last of them in the minute's last pauses. On the page's clock, so a busy machine (a pause the test advanced
  // before the kit had scheduled it) costs an attempt, not the test (issue 54: 10 attempts seen at load 10).
  const attempts = a.requests.filter((r) => r.method === "POST" && /\/store\/carts\/[^/]+\/complete$/.test(r.url)).length
  expect(attempts).toBeGreaterThanOrEqual(8)
  expect(Math.max(...askedAt) - started).toBeGreaterThanOrEqual(48_000)
  await expect(status.textContent()).resolves.toBe(en.notConfirmed)
  await expect(a.page.getByRole("button", { name: format(en.payButton, { amount: amount() }) }).isDisabled()).resolves.toBe(true)
  expect(await a.page.getByRole("button", { name: en.payAgain }).count()).toBe(0)
  await expect(a.page.locator("body").innerText()).resolves.not.toMatch(/not authori[sz]ed|Session:/i)
  await expectNoIds(a.page, "the pending card form")
  expect(await orders(a)).toHaveLength(before.length)
}, 120_000) // the kit waits 60 s for the bank (its page clock, above) before it says so

it("the plugin's own payment-link page: an edited order's difference, declined first, then paid on a new hosted page; the receipt, and nothing owed", async () => {
  // Issue 50: the page Medusa's "Copy payment link" lands on when the admin's storefrontUrl is `{backend}/payneteasy`.
  const a = app()
  const before = await orders(a)
  await openShop(a.page, a.shopUrl)
  await a.page.getByLabel(/gateway's payment page/).check()
  await a.page.getByRole("button", { name: format(en.payOnPaymentPage, { amount: "€10.42" }) }).click()
  await a.page.waitForURL((u) => u.href.startsWith(`${a.sandbox.url}/form/`))
  await fillCardAndPay(a.page, { cvv2: "123" })
  await a.page.waitForURL((u) => u.pathname.endsWith("/payneteasy-demo/thank-you"))
  const order = await expectOneNewOrder(a, before, HOSTED)

  // captured, then edited to one more unit: Medusa makes a collection for the difference (its own admin routes)
  const { data: { order: placed } } = await a.admin.get<any>(`/admin/orders/${order.id}?fields=id,*payment_collections,*payment_collections.payments`)
  await a.admin.post(`/admin/payments/${placed.payment_collections[0].payments[0].id}/capture`, {})
  await a.admin.post("/admin/order-edits", { order_id: order.id })
  await a.admin.post(`/admin/order-edits/${order.id}/items`, { items: [{ variant_id: a.store.variantId, quantity: 1 }] })
  await a.admin.post(`/admin/order-edits/${order.id}/request`, {})
  await a.admin.post(`/admin/order-edits/${order.id}/confirm`, {})
  const owed = async () => (await a.admin.get<any>(`/admin/orders/${order.id}?fields=id,summary,*payment_collections`)).data.order
  const unpaid = (await owed()).payment_collections.find((c: any) => c.status === "not_paid")
  expect(unpaid).toBeDefined()

  const link = `${a.backendUrl}/payneteasy/payment-collection/${unpaid.id}?order_id=${order.id}`
  await a.page.goto(link)
  await expect(a.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(`Payment for order #${order.display_id}`)
  await a.page.getByRole("button", { name: "Pay €10.42" }).click()
  await a.page.waitForURL((u) => u.href.startsWith(`${a.sandbox.url}/form/`))
  const firstPage = a.page.url()
  await fillCardAndPay(a.page, { cvv2: "116" })
  await a.page.waitForURL((u) => u.pathname === `/payneteasy/payment-collection/${unpaid.id}`)
  await a.page.getByText(/Your last payment attempt was declined \(.+\)\. Nothing was charged; you can try again\./).waitFor()
  await a.page.getByRole("button", { name: "Try again: pay €10.42" }).click()
  await a.page.waitForURL((u) => u.href.startsWith(`${a.sandbox.url}/form/`) && u.href !== firstPage)
  await fillCardAndPay(a.page, { cvv2: "123" })
  await a.page.waitForURL((u) => u.pathname === `/payneteasy/payment-collection/${unpaid.id}`)
  await a.page.getByText(`Thank you. Your payment for order #${order.display_id} has been received.`).waitFor({ timeout: 45_000 })
  expect(await a.page.getByRole("button").count()).toBe(0)
  const paid = await owed()
  expect(Number(paid.summary.pending_difference)).toBe(0)
  // the card went to the gateway's own pages only
  expect([...new Set(cardCarriers(a).map((r) => new URL(r.url).origin))]).toEqual([a.sandbox.origin])
}, 180_000)

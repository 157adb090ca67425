/**
 * The dashboard in a real Chromium, against the BUILT plugin loaded by a Medusa app (helpers/admin-app.ts) with the
 * sandbox over HTTP: log in at /app; the order page's PaynetEasy panel shows the gateway's values for an order paid
 * on the hosted page and "Check at the gateway now" adds the STATUS answer; the PaynetEasy page lists an approved
 * payment whose session was deleted (made with the sandbox) and marks it handled (who and when); the connection
 * check says the good credentials work and the wrong ones do not. A screenshot of each screen goes to
 * browser-tests/screenshots/ (git-ignored).
 */
import { callbackControl } from "../src/gateway"
import { DEFAULT_SANDBOX_MERCHANT, payHostedPage } from "../src/sandbox"
import { DEFAULT_PROVIDERS, TEST_CARD, useAdminApp } from "./helpers/admin-app"
import { checkoutToPaymentSession, storeHeaders } from "../integration-tests/helpers/store"
import { waitFor } from "../integration-tests/helpers/inspect"

jest.setTimeout(120_000)

const app = useAdminApp({
  providers: [...DEFAULT_PROVIDERS, { id: "wrongkey", options: { controlKey: "00000000-WRONG-KEY-0000-000000000000" } }],
})

it("logs in at /app and the sidebar leads to the PaynetEasy page", async () => {
  const { page } = app()
  expect(new URL(page.url()).pathname.startsWith("/app")).toBe(true)
  const link = page.getByRole("link", { name: "PaynetEasy" })
  await link.first().waitFor()
  await link.first().click()
  await page.waitForURL(/\/app\/payneteasy$/)
  await page.getByRole("heading", { name: "PaynetEasy", level: 1 }).waitFor()
})

it("order panel: the gateway's values for a hosted-page order, then Check at the gateway now adds what STATUS says", async () => {
  const { page } = app()
  const { orderId, sessionId, gatewayOrderId } = await app().payHostedOrder("pp_payneteasy_auto")
  await app().gotoAdmin(`/orders/${orderId}`)
  const panel = page.getByTestId("payneteasy-order-panel")
  await panel.waitFor()
  // Gateway ids and the notifications are technical details, behind the disclosure.
  await panel.getByTestId("payneteasy-technical-toggle").click()
  await expect(panel.getByTestId("payneteasy-gateway-order-id").textContent()).resolves.toBe(gatewayOrderId)
  await expect(panel.getByTestId("payneteasy-client-orderid").textContent()).resolves.toBe(sessionId)
  const callbacks = panel.getByTestId("payneteasy-callbacks")
  await callbacks.locator('[data-status="processed"]').first().waitFor()
  await expect(callbacks.textContent()).resolves.toMatch(/Gateway notification.*sale.*Approved.*Processed/)
  await panel.getByTestId("payneteasy-no-transactions").waitFor()
  await app().screenshot("order-panel", panel)

  const statusBefore = app().sandbox.control.requests().STATUS ?? 0
  await panel.getByTestId("payneteasy-check-now").click()
  const transactions = panel.getByTestId("payneteasy-transactions")
  await transactions.waitFor()
  const text = (await transactions.textContent()) ?? ""
  expect(text).toContain("sale")
  expect(await transactions.locator('[data-status="approved"]').count()).toBe(1)
  expect(text).toContain("Approved")
  expect(text).toContain("€10.42")
  expect(text).toContain(app().admin.email)
  expect(await panel.getByTestId("payneteasy-last-checked").textContent()).not.toBe("Never")
  expect((app().sandbox.control.requests().STATUS ?? 0) - statusBefore).toBe(1)
  await app().screenshot("order-panel-checked", panel)
})

/** The panel's text an owner reads (the "Technical details" disclosure left out). */
const ownerText = (panel: import("playwright-core").Locator) =>
  panel.evaluate((el) => {
    const copy = el.cloneNode(true) as HTMLElement
    copy.querySelectorAll('[data-testid="payneteasy-technical"]').forEach((d) => d.remove())
    return copy.textContent ?? ""
  })

it("order summary: after a partial capture, a refund and a chargeback, the side column says what is authorized, captured, refunded, charged back and left to capture", async () => {
  const { page, api, admin } = app()
  const { orderId, gatewayOrderId } = await app().payHostedOrder("pp_payneteasy_payneteasy")
  const { data } = await api.get(`/admin/orders/${orderId}?fields=id,display_id,*payment_collections.payments`)
  const payment = data.order.payment_collections[0].payments[0]
  await api.post(`/admin/payments/${payment.id}/capture`, { amount: 6 })
  await api.post(`/admin/payments/${payment.id}/refund`, { amount: 2.5 })
  app().sandbox.control.chargeback(gatewayOrderId, "1.00")
  await waitFor("the chargeback reported to the shop", async () => {
    const { data: p } = await api.get(`/admin/payneteasy/orders/${orderId}`)
    return p.order.summary[0]?.charged_back === "1.00"
  })

  await app().gotoAdmin(`/orders/${orderId}`)
  const summary = page.getByTestId("payneteasy-summary")
  await summary.waitFor()
  const figure = async (name: string) => [await summary.getByTestId(`payneteasy-summary-${name}`).getAttribute("data-value"), await summary.getByTestId(`payneteasy-summary-${name}`).textContent()]
  expect(await figure("authorized")).toEqual(["10.42", "€10.42"])
  expect(await figure("captured")).toEqual(["6.00", "€6.00"])
  expect(await figure("refunded")).toEqual(["2.50", "€2.50"])
  expect(await figure("charged-back")).toEqual(["1.00", "€1.00"])
  expect(await figure("left-to-capture")).toEqual(["4.42", "€4.42"])
  // In the side column, beside Medusa's own cards (not below the JSON card at the bottom of the main column).
  const box = await summary.boundingBox()
  const main = await page.getByTestId("payneteasy-order-panel").boundingBox()
  expect(box!.x).toBeGreaterThan(main!.x + main!.width - 1)
  await app().screenshot("order-summary", summary)
  await app().docScreenshot("admin-order-summary", summary)

  // The admin's capture and refund are this dashboard's actions, by the admin's e-mail; the chargeback is the gateway's.
  const panel = page.getByTestId("payneteasy-order-panel")
  const rows = panel.getByTestId("payneteasy-activity-row")
  await rows.first().waitFor()
  const kinds = await rows.evaluateAll((els) => els.map((e) => `${e.getAttribute("data-kind")}:${e.getAttribute("data-origin")}`))
  expect(kinds).toEqual(["authorization:checkout", "capture:dashboard", "refund:dashboard", "chargeback:gateway"])
  const capture = panel.locator('[data-testid="payneteasy-activity-row"][data-kind="capture"]')
  expect(await capture.textContent()).toContain(admin.email)
  expect(await capture.textContent()).toContain("This dashboard")
  expect(await capture.textContent()).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}/) // Medusa's date format, not 11/25/2026
  expect(await panel.locator('[data-testid="payneteasy-activity-row"][data-kind="chargeback"]').textContent()).toContain("Reported by the gateway")
  await app().screenshot("order-panel-activity", panel)
  await app().docScreenshot("admin-order-panel", panel)
})

it("order panel vocabulary: no raw gateway status, flow word or internal id outside Technical details", async () => {
  const { page, api } = app()
  const { orderId } = await app().payHostedOrder("pp_payneteasy_payneteasy")
  const { data } = await api.get(`/admin/orders/${orderId}?fields=id,*payment_collections.payments`)
  await api.post(`/admin/payments/${data.order.payment_collections[0].payments[0].id}/capture`, { amount: 3 })
  await app().gotoAdmin(`/orders/${orderId}`)
  const panel = page.getByTestId("payneteasy-order-panel")
  await panel.getByTestId("payneteasy-activity-row").nth(1).waitFor()
  await panel.getByTestId("payneteasy-check-now").click()
  await panel.getByTestId("payneteasy-transactions").waitFor({ state: "attached" })
  const text = await ownerText(panel)
  expect(text).toContain("Payment page")
  expect(text).toContain("Handled on the payment page")
  expect(text).toContain("Capture")
  expect(text).not.toMatch(/\b(approved|declined|processing|processed|preauth|sale|reversal|hosted|client_orderid|form_issued|check_declined|two_step|not_set_up|STATUS)\b/)
  expect(text).not.toMatch(/\b(order|pay|payses|paycol|capt|ref|user|pnecb|pp)_[0-9A-Za-z]{4,}/)
  expect(text).not.toMatch(/\d{1,2}\/\d{1,2}\/\d{4}/) // no US-style dates
  expect(text).not.toContain("check(s)")
  const technical = await panel.getByTestId("payneteasy-technical").first().getAttribute("open")
  expect(technical).toBeNull() // closed until asked
})

it("PaynetEasy page: an approved payment for a deleted session no order of ours vouches for is listed with what to do, and marked handled", async () => {
  const { page, store, anonymous, api, admin, sandbox, url } = app()
  // The shopper changes the cart (Medusa deletes the payment session) but pays on the hosted page left open: the
  // callback carries our tag, so the payment is given back by itself and needs nobody (core/callbacks/orphaned-payment.ts).
  const ours = await checkoutToPaymentSession(anonymous, store, "pp_payneteasy_auto")
  await anonymous.post(`/store/carts/${ours.cart.id}/line-items`, { variant_id: store.variantId, quantity: 1 }, storeHeaders(store))
  await payHostedPage(ours.session.data.redirectUrl, TEST_CARD)
  const given = await waitFor("the given-back callback in the callback log", async () => {
    const { data } = await api.get(`/admin/payneteasy/callbacks?client_orderid=${ours.session.id}&outcome=processed`)
    return data.callbacks?.[0]
  })
  expect(given.outcome_detail).toMatch(/given back/)
  // The same, for an order whose callback does not carry the tag (registered before it existed, or by another shop on
  // the account): nothing is given back, and a person is asked.
  sandbox.control.addFault({ kind: "callback-off" })
  const { cart, session } = await checkoutToPaymentSession(anonymous, store, "pp_payneteasy_auto")
  await anonymous.post(`/store/carts/${cart.id}/line-items`, { variant_id: store.variantId, quantity: 1 }, storeHeaders(store))
  await payHostedPage(session.data.redirectUrl, TEST_CARD)
  const [gateway] = sandbox.control.byClientOrderId(session.id)
  const paid = await sandbox.control.waitForOutcome(gateway.orderid)
  sandbox.control.clearFaults()
  const untagged = new URL(`${url}/payneteasy/callback`)
  const fields = {
    status: "approved", merchant_order: session.id, client_orderid: session.id, orderid: gateway.orderid, type: "sale",
    amount: paid.initialAmount, currency: "EUR", control: callbackControl("approved", gateway.orderid, session.id, DEFAULT_SANDBOX_MERCHANT.controlKey),
  }
  for (const [k, v] of Object.entries(fields)) untagged.searchParams.set(k, v)
  expect((await fetch(untagged)).status).toBe(200)
  const item = await waitFor("the flagged item in the attention API", async () => {
    const { data } = await api.get("/admin/payneteasy/attention")
    return data.items.find((i: any) => i.client_orderid === session.id)
  })
  expect(item.kind).toBe("paid_without_order")
  const { data: list } = await api.get("/admin/payneteasy/attention")
  expect(list.items.find((i: any) => i.client_orderid === ours.session.id)).toBeUndefined()

  await app().gotoAdmin("/payneteasy")
  const row = page.locator(`[data-testid="payneteasy-attention-item"][data-item-id="${item.id}"]`)
  await row.waitFor()
  await expect(row.textContent()).resolves.toMatch(/Refund or void/)
  await app().screenshot("attention")
  await row.getByTestId("payneteasy-mark-handled").click()
  await row.waitFor({ state: "detached" })

  await page.getByTestId("payneteasy-attention-filter").click()
  await page.getByRole("option", { name: "Handled" }).click()
  const handledRow = page.locator(`[data-testid="payneteasy-attention-item"][data-item-id="${item.id}"]`)
  await expect(handledRow.getByTestId("payneteasy-attention-handled").textContent()).resolves.toContain(`Handled by ${admin.email}`)
  const { data } = await api.get("/admin/payneteasy/attention?handled=true")
  expect(data.items.find((i: any) => i.id === item.id).handled).toMatchObject({ by: admin.userId, by_email: admin.email })
  await app().screenshot("attention-handled")
})

it("callback log: filtered by outcome, parameters shown scrubbed", async () => {
  const { page } = app()
  await app().gotoAdmin("/payneteasy")
  await page.getByRole("tab", { name: "Callback log" }).click()
  const log = page.getByTestId("payneteasy-callback-log")
  await log.getByTestId("payneteasy-callback-row").first().waitFor()
  await log.getByRole("combobox").nth(1).click()
  await page.getByRole("option", { name: "Needs attention" }).click() // the outcome "flagged" in the label table's words
  const rows = log.getByTestId("payneteasy-callback-row")
  await waitFor("only the flagged callback listed", async () => (await rows.count()) === 1 && (await rows.first().locator('[data-status="flagged"]').count()) === 1)
  expect(await rows.first().textContent()).toContain("Needs attention")
  await rows.first().getByRole("button", { name: "Parameters" }).click()
  const params = (await log.getByTestId("payneteasy-callback-params").textContent()) ?? ""
  expect(params).toContain('"status": "approved"')
  expect(params).not.toMatch(/"control"/)
  expect(params).not.toContain("4444555566661111")
  await app().screenshot("callback-log")
})

/** Medusa's profile language setting, as an admin changes it: Profile → Edit → Language → Save. */
async function pickLanguage(page: import("playwright-core").Page, displayName: string) {
  await app().gotoAdmin("/settings/profile/edit")
  const drawer = page.getByRole("dialog")
  await drawer.getByRole("combobox").click()
  await page.getByRole("option", { name: displayName, exact: true }).click()
  await drawer.locator('button[type="submit"]').click()
  await drawer.waitFor({ state: "detached" })
}

it("in German (Medusa's profile language): the PaynetEasy page, sidebar and attention list speak de.ts's words", async () => {
  const { page } = app()
  await pickLanguage(page, "Deutsch")
  try {
    await app().gotoAdmin("/payneteasy")
    const attention = page.getByTestId("payneteasy-attention")
    await attention.getByRole("heading", { name: "Aufmerksamkeit", level: 2 }).waitFor()
    await page.getByText("Was das Gateway diesem Shop mitgeteilt hat", { exact: false }).waitFor()
    expect(await page.getByRole("tab", { name: "Benachrichtigungsprotokoll" }).count()).toBe(1)
    expect(await page.getByRole("tab", { name: "Verbindung" }).count()).toBe(1)
    // the sidebar entries (route labels translated through translationNs) and Medusa's own words, in the same language
    expect(await page.getByRole("link", { name: "Auszahlungen" }).count()).toBeGreaterThan(0)
    expect(await page.getByRole("link", { name: "Bestellungen" }).count()).toBeGreaterThan(0)
    // the item handled by an earlier test: its kind through the label table, who handled it, when (German date)
    await page.getByTestId("payneteasy-attention-filter").click()
    await page.getByRole("option", { name: "Erledigt", exact: true }).click()
    const handled = page.locator('[data-testid="payneteasy-attention-item"]', { has: page.getByTestId("payneteasy-attention-handled") }).first()
    await expect(handled.getByTestId("payneteasy-attention-kind").textContent()).resolves.toBe("Bezahlt, keine Bestellung")
    const by = (await handled.getByTestId("payneteasy-attention-handled").textContent()) ?? ""
    expect(by).toMatch(new RegExp(`Erledigt von ${app().admin.email.replace(/[.+]/g, "\\$&")} am \\d{2}\\.\\d{2}\\.\\d{4}`))
    // the callback log: German column heads, the source through the label table, money the German way
    await page.getByRole("tab", { name: "Benachrichtigungsprotokoll" }).click()
    const log = page.getByTestId("payneteasy-callback-log")
    await log.getByTestId("payneteasy-callback-row").first().waitFor()
    expect(await log.getByRole("columnheader", { name: "Empfangen" }).count()).toBe(1)
    const text = (await log.textContent()) ?? ""
    expect(text).toContain("Gateway-Benachrichtigung")
    expect(text).toMatch(/\d+,\d{2}\s€/)
    expect(text).not.toMatch(/\b(Received|Gateway notification|Any status|Callback log|results|Prev|Next)\b/)
    expect(text).toContain("Ergebnisse") // the UI kit's pagination, in Medusa's own words
    await app().screenshot("payneteasy-page-de")
  } finally {
    await pickLanguage(page, "English")
  }
  await app().gotoAdmin("/payneteasy")
  await page.getByTestId("payneteasy-attention").getByRole("heading", { name: "Attention", level: 2 }).waitFor()
})

it("connection check: good credentials work, a wrong control key is named", async () => {
  const { page } = app()
  await app().gotoAdmin("/payneteasy")
  await page.getByRole("tab", { name: "Connection" }).click()
  await page.getByTestId("payneteasy-run-check").click()
  const good = page.locator('[data-testid="payneteasy-provider"][data-provider-id="pp_payneteasy_auto"]')
  const wrong = page.locator('[data-testid="payneteasy-provider"][data-provider-id="pp_payneteasy_wrongkey"]')
  await good.waitFor()
  await expect(good.getAttribute("data-ok")).resolves.toBe("true")
  await expect(good.getByTestId("payneteasy-provider-result").textContent()).resolves.toMatch(/credentials work/)
  await expect(wrong.getAttribute("data-ok")).resolves.toBe("false")
  await expect(wrong.getByTestId("payneteasy-provider-result").textContent()).resolves.toMatch(/do not work.*control key/)
  const table = (await page.getByTestId("payneteasy-connection").textContent()) ?? ""
  expect(table).toContain(app().sandbox.url)
  expect(table).not.toContain("sandbox-merchant") // login masked
  expect(table).not.toContain("WRONG-KEY")
  await app().screenshot("connection-check")
  // Last test of the file: no script error on any dashboard page visited (the extensions must not break the dashboard).
  expect(app().pageErrors).toEqual([])
})

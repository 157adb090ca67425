/**
 * Saved cards in the dashboard, in a real Chromium against the BUILT plugin (helpers/admin-app.ts) and the sandbox over
 * HTTP: a logged-in customer pays with `save_card`; the customer page's widget lists the card masked (where it came
 * from); after an order edit the order page offers "Charge saved card" with the outstanding amount, and charging it
 * (with the confirmation) makes the order's outstanding amount zero — checked through Medusa's admin API and the
 * gateway's record.
 */
import { payHostedPage } from "../src/sandbox"
import { TEST_CARD, useAdminApp } from "./helpers/admin-app"
import { payerFromCart, storeHeaders } from "../integration-tests/helpers/store"

jest.setTimeout(180_000)

const app = useAdminApp()

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await probe()
    if (v) return v as T
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

let orderId = ""
let customerId = ""

beforeAll(async () => {
  const { anonymous, api, store } = app()
  const email = `widget-${Date.now()}@payneteasy.test`
  const password = "customer-password"
  const reg = await anonymous.post("/auth/customer/emailpass/register", { email, password })
  await anonymous.post("/store/customers", { email, first_name: "Wid", last_name: "Get" },
    { headers: { ...storeHeaders(store).headers, authorization: `Bearer ${reg.data.token}` } })
  const login = await anonymous.post("/auth/customer/emailpass", { email, password })
  const headers = { ...storeHeaders(store).headers, authorization: `Bearer ${login.data.token}` }
  const address = { first_name: "Wid", last_name: "Get", address_1: "5 Widget St", city: "Berlin", postal_code: "10117", country_code: store.countryCode, phone: "+49304444444" }
  const cart = (await anonymous.post("/store/carts", {
    region_id: store.regionId, sales_channel_id: store.salesChannelId, items: [{ variant_id: store.variantId, quantity: 1 }],
    shipping_address: address, billing_address: address,
  }, { headers })).data.cart
  await anonymous.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: store.shippingOptionId }, { headers })
  const pc = await anonymous.post("/store/payment-collections", { cart_id: cart.id }, { headers })
  const ses = await anonymous.post(`/store/payment-collections/${pc.data.payment_collection.id}/payment-sessions`,
    { provider_id: "pp_payneteasy_auto", data: { payer: payerFromCart(cart), save_card: true } }, { headers })
  await payHostedPage(ses.data.payment_collection.payment_sessions[0].data.redirectUrl, TEST_CARD)
  const done = await anonymous.post(`/store/carts/${cart.id}/complete`, {}, { headers })
  orderId = done.data.order.id
  customerId = (await api.get(`/admin/orders/${orderId}?fields=id,customer_id`)).data.order.customer_id
  await waitFor("the saved card", async () => (await api.get(`/admin/payneteasy/customers/${customerId}/cards`)).data.cards[0])
  // An order edit adds one more unit: the order then has an outstanding amount.
  await api.post("/admin/order-edits", { order_id: orderId })
  await api.post(`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: store.variantId, quantity: 1 }] })
  await api.post(`/admin/order-edits/${orderId}/request`, {})
  await api.post(`/admin/order-edits/${orderId}/confirm`, {})
})

const outstanding = async () =>
  String((await app().api.get(`/admin/orders/${orderId}?fields=id,summary`)).data.order.summary.pending_difference)

it("customer page: the saved-cards widget shows the card masked, from which order", async () => {
  const { page } = app()
  await app().gotoAdmin(`/customers/${customerId}`)
  const widget = page.getByTestId("payneteasy-customer-cards")
  await widget.waitFor()
  const row = widget.getByTestId("payneteasy-customer-card")
  await row.first().waitFor()
  const text = (await row.first().textContent()) ?? ""
  expect(text).toContain("444455••••••1111")
  expect(text).toContain("12/2030")
  expect(text).toContain(`order ${orderId}`)
  expect(text).not.toContain(TEST_CARD.number)
  await app().screenshot("customer-saved-cards", widget)
})

it("order page: Charge saved card charges the outstanding amount after confirmation; outstanding becomes zero", async () => {
  const { page, sandbox } = app()
  expect(await outstanding()).toBe("10.42")
  await app().gotoAdmin(`/orders/${orderId}`)
  const widget = page.getByTestId("payneteasy-order-rebill")
  await widget.waitFor()
  await expect(widget.getByTestId("payneteasy-outstanding").textContent()).resolves.toContain("10.42 EUR")
  await app().screenshot("order-charge-saved-card", widget)
  const rebills = sandbox.control.requests().REBILL ?? 0
  await widget.getByTestId("payneteasy-rebill-charge").click()
  await page.getByRole("button", { name: "Charge", exact: true }).click()
  await waitFor("the order to be paid", async () => (await outstanding()) === "0")
  expect((sandbox.control.requests().REBILL ?? 0) - rebills).toBe(1)
  const rebill = sandbox.control.transactions().filter((t) => t.operation === "REBILL")
  expect(rebill).toHaveLength(1)
  expect(rebill[0]).toMatchObject({ status: "approved", captured: "10.42", currency: "EUR" })
  await widget.waitFor({ state: "detached" }) // nothing outstanding any more: the action is gone
  expect(app().pageErrors).toEqual([])
})

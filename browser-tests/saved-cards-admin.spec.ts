/**
 * Saved cards in the dashboard, in a real Chromium against the BUILT plugin (helpers/admin-app.ts) and the sandbox over
 * HTTP: a logged-in customer pays with `save_card`; the customer page's widget lists the card masked (where it came
 * from: the order as a "#N" link); after an order edit the order page offers "Charge saved card" with the outstanding amount, and charging it
 * (with the confirmation) makes the order's outstanding amount zero — checked through Medusa's admin API and the
 * gateway's record.
 */
import { TEST_CARD, useAdminApp } from "./helpers/admin-app"
import { customerHostedOrder, registerCustomer } from "../integration-tests/helpers/store"
import { waitFor } from "../integration-tests/helpers/inspect"

jest.setTimeout(180_000)

const app = useAdminApp()

let orderId = ""
let customerId = ""

beforeAll(async () => {
  const { anonymous, api, store } = app()
  const customer = await registerCustomer(anonymous, store, "widget")
  ;({ orderId } = await customerHostedOrder(anonymous, store, customer, {
    providerId: "pp_payneteasy_auto", card: TEST_CARD, data: { save_card: true },
    address: { first_name: "Wid", last_name: "Get", address_1: "5 Widget St", city: "Berlin", postal_code: "10117", phone: "+49304444444" },
  }))
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
  expect(text).toContain("•••• 1111") // the dashboard's one masking: brand •••• last four
  expect(text).toContain("12/2030")
  // from which order, in the owner's words: "#N", a link to the order (never order_…)
  const display = (await app().api.get(`/admin/orders/${orderId}?fields=id,display_id`)).data.order.display_id
  await expect(row.first().getByTestId("payneteasy-card-source-order").textContent()).resolves.toBe(`order #${display}`)
  expect(text).not.toContain(orderId)
  expect(text).not.toContain(TEST_CARD.number)
  await app().screenshot("customer-saved-cards", widget)
  await row.first().getByTestId("payneteasy-card-source-order").click()
  await page.waitForURL((u) => u.pathname.endsWith(`/orders/${orderId}`))
})

it("order page: Charge saved card charges the outstanding amount after confirmation; outstanding becomes zero", async () => {
  const { page, sandbox } = app()
  expect(await outstanding()).toBe("10.42")
  await app().gotoAdmin(`/orders/${orderId}`)
  const widget = page.getByTestId("payneteasy-order-rebill")
  await widget.waitFor()
  await expect(widget.getByTestId("payneteasy-outstanding").textContent()).resolves.toContain("€10.42")
  await app().screenshot("order-charge-saved-card", widget)
  const rebills = sandbox.control.requests().REBILL ?? 0
  await widget.getByTestId("payneteasy-rebill-charge").click()
  await expect(page.getByRole("alertdialog").textContent()).resolves.toMatch(/Charge €10\.42 to .* •••• 1111 now/)
  await page.getByRole("button", { name: "Charge", exact: true }).click()
  await waitFor("the order to be paid", async () => (await outstanding()) === "0")
  expect((sandbox.control.requests().REBILL ?? 0) - rebills).toBe(1)
  const rebill = sandbox.control.transactions().filter((t) => t.operation === "REBILL")
  expect(rebill).toHaveLength(1)
  expect(rebill[0]).toMatchObject({ status: "approved", captured: "10.42", currency: "EUR" })
  await widget.waitFor({ state: "detached" }) // nothing outstanding any more: the action is gone
  expect(app().pageErrors).toEqual([])
})

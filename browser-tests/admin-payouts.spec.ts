/**
 * The Payouts page in a real Chromium, against the BUILT plugin loaded by a Medusa app (helpers/admin-app.ts) with the
 * sandbox over HTTP (this spec's RSA public key registered there, the provider holding the private key, so the v4
 * two-step payout is really signed and verified). An admin creates a two-step card payout in the form, sees it
 * checked (payout-check approved, nothing paid yet), confirms it, and sees it approved with its history. The form's
 * own validation refuses a card number that fails Luhn before anything reaches the server or the gateway.
 */
import { DEFAULT_PROVIDERS, rsaKeyPair, useAdminApp } from "./helpers/admin-app"

jest.setTimeout(120_000)

const keys = rsaKeyPair()

// Same registration ids as the other admin specs (so the template database is shared); the manual-capture one also
// sends payouts.
const app = useAdminApp({
  providers: DEFAULT_PROVIDERS.map((p) =>
    p.id === "payneteasy"
      ? {
          ...p,
          options: {
            ...p.options,
            privateKey: keys.privateKeyPem,
            payouts: { currencies: ["EUR"], maxAmount: { EUR: "1000.00" } },
          },
        }
      : p
  ),
  sandbox: { merchants: keys.merchants },

})

const payoutRequests = () => {
  const r = app().sandbox.control.requests()
  return (r.PAYOUT_V4_CHECK ?? 0) + (r.PAYOUT_V4_PAY ?? 0) + (r.PAYOUT ?? 0)
}

async function openForm() {
  const { page } = app()
  await app().gotoAdmin("/payouts")
  await page.getByTestId("payout-create-open").click()
  await page.locator("#payout-amount").waitFor()
}

it("the form refuses a card number that fails Luhn, naming the field, and sends nothing", async () => {
  const { page } = app()
  const before = payoutRequests()
  await openForm()
  await page.locator("#payout-amount").fill("12.50")
  await page.locator("#payout-card_number").fill("4444555566661112")
  await page.getByTestId("payout-submit").click()
  await page.getByTestId("error-card_number").waitFor()
  expect(payoutRequests()).toBe(before)
  const { data } = await app().api.get("/admin/payneteasy/payouts")
  expect(data.payouts).toHaveLength(0)
})

it("two-step payout: created and checked, confirmed, approved with its history", async () => {
  const { page } = app()
  await openForm()
  await page.locator("#payout-amount").fill("25.40")
  await page.locator("#payout-card_number").fill("4444555566661111")
  await page.locator("#payout-recipient").fill("Seller One")
  await page.getByTestId("payout-submit").click()

  // The detail page: the check is approved and nothing is paid until the admin confirms.
  await page.waitForURL(/\/app\/payouts\/[^/]+$/)
  const status = page.getByTestId("payout-status")
  await status.filter({ hasText: "checked" }).waitFor()
  expect(app().sandbox.control.requests().PAYOUT_V4_CHECK ?? 0).toBe(1)
  expect(app().sandbox.control.requests().PAYOUT_V4_PAY ?? 0).toBe(0)
  await expect(page.locator("body").textContent()).resolves.toContain("444455******1111")
  await app().screenshot("payout-checked")

  await page.getByTestId("payout-confirm").click()
  await status.filter({ hasText: "approved" }).waitFor({ timeout: 30_000 })
  expect(app().sandbox.control.requests().PAYOUT_V4_PAY ?? 0).toBe(1)

  const id = new URL(page.url()).pathname.split("/").pop()!
  const { data } = await app().api.get(`/admin/payneteasy/payouts/${id}`)
  expect(data.payout).toMatchObject({ method: "two_step", status: "approved", amount: "25.40", currency_code: "EUR" })
  const transitions = (data.payout.history as Array<{ to_status: string }>).map((h) => h.to_status)
  expect(transitions).toEqual(expect.arrayContaining(["checked", "approved"]))
  expect(data.payout.confirmed_by).toBe(`user:${app().admin.userId}`)
  // The page shows every history entry the API has, the confirming admin among the actors.
  await page.reload()
  await status.filter({ hasText: "approved" }).waitFor()
  expect(await page.getByTestId("payout-history-row").count()).toBe(data.payout.history.length)
  expect(await page.locator("body").textContent()).toContain(`user:${app().admin.userId}`)
  await app().screenshot("payout-approved")
})

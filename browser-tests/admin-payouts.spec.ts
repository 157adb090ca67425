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
  // Asked first, naming amount and destination; the check sends no money yet.
  const ask = page.getByRole("alertdialog")
  await expect(ask.textContent()).resolves.toMatch(/€25\.40.*Card •••• 1111/)
  await ask.getByRole("button", { name: "Check", exact: true }).click()

  // The detail page: the check is approved and nothing is paid until the admin confirms.
  await page.waitForURL(/\/app\/payouts\/[^/]+$/)
  const status = page.getByTestId("payout-status")
  await page.locator('[data-testid="payout-status"][data-status="checked"]').waitFor()
  expect(await status.textContent()).toBe("Checked, waiting for confirmation")
  expect(app().sandbox.control.requests().PAYOUT_V4_CHECK ?? 0).toBe(1)
  expect(app().sandbox.control.requests().PAYOUT_V4_PAY ?? 0).toBe(0)
  await expect(page.getByTestId("payout-destination").textContent()).resolves.toBe("Card •••• 1111")
  await app().screenshot("payout-checked")

  // Confirm asks again (this one pays); cancelling it sends nothing.
  await page.getByTestId("payout-confirm").click()
  await expect(page.getByRole("alertdialog").textContent()).resolves.toMatch(/Pay €25\.40 to Card •••• 1111 now\?/)
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel", exact: true }).click()
  await page.getByRole("alertdialog").waitFor({ state: "detached" })
  expect(app().sandbox.control.requests().PAYOUT_V4_PAY ?? 0).toBe(0)
  await page.getByTestId("payout-confirm").click()
  await page.getByRole("alertdialog").getByRole("button", { name: "Send €25.40", exact: true }).click()
  await page.locator('[data-testid="payout-status"][data-status="approved"]').waitFor({ timeout: 30_000 })
  expect(await status.textContent()).toBe("Paid out")
  expect(app().sandbox.control.requests().PAYOUT_V4_PAY ?? 0).toBe(1)

  const id = new URL(page.url()).pathname.split("/").pop()!
  const { data } = await app().api.get(`/admin/payneteasy/payouts/${id}`)
  expect(data.payout).toMatchObject({ method: "two_step", status: "approved", amount: "25.40", currency_code: "EUR" })
  const transitions = (data.payout.history as Array<{ to_status: string }>).map((h) => h.to_status)
  expect(transitions).toEqual(expect.arrayContaining(["checked", "approved"]))
  expect(data.payout.confirmed_by).toBe(`user:${app().admin.userId}`)
  // The page shows every history entry the API has, the confirming admin among the actors.
  await page.reload()
  await page.locator('[data-testid="payout-status"][data-status="approved"]').waitFor()
  expect(await page.getByTestId("payout-history-row").count()).toBe(data.payout.history.length)
  // People by e-mail: the confirming admin is named by the address they log in with, not an internal id.
  expect(await page.getByTestId("payout-confirmed-by").textContent()).toContain(app().admin.email)
  expect(await page.locator("body").textContent()).not.toContain(`user:${app().admin.userId}`)
  await app().screenshot("payout-approved")
})

it("the form shows the allowed currencies and limits up front; a single-step payout asks first: cancel sends nothing, confirm sends one", async () => {
  const { page } = app()
  await openForm()
  await expect(page.getByTestId("payout-limits").textContent()).resolves.toBe("Allowed: EUR up to €1,000.00")
  await expect(page.getByTestId("payout-currency").textContent()).resolves.toBe("EUR")
  // Above the limit: refused under the amount, in words, before anything is sent.
  await page.locator("#payout-amount").fill("1000.01")
  await page.locator("#payout-card_number").fill("4444555566661111")
  await page.getByTestId("payout-submit").click()
  await expect(page.getByTestId("error-amount").textContent()).resolves.toBe("At most €1,000.00 per payout")
  // A browser-side refusal is under its field in words, not an internal field name.
  await page.locator("#payout-amount").fill("12.345")
  await page.getByTestId("payout-submit").click()
  await expect(page.getByTestId("error-amount").textContent()).resolves.not.toMatch(/currency_code|card_number/)

  await page.getByTestId("payout-method").click()
  await page.getByRole("option", { name: "Single-step" }).click()
  await page.locator("#payout-amount").fill("12.00")
  const before = payoutRequests()
  const { data: listBefore } = await app().api.get("/admin/payneteasy/payouts")
  await page.getByTestId("payout-submit").click()
  const ask = page.getByRole("alertdialog")
  await expect(ask.textContent()).resolves.toContain("Send €12.00 to Card •••• 1111?")
  await app().screenshot("payout-confirm-dialog")
  await ask.getByRole("button", { name: "Cancel", exact: true }).click()
  await ask.waitFor({ state: "detached" })
  expect(payoutRequests()).toBe(before)
  expect((await app().api.get("/admin/payneteasy/payouts")).data.count).toBe(listBefore.count)

  await page.getByTestId("payout-submit").click()
  await page.getByRole("alertdialog").getByRole("button", { name: "Send €12.00", exact: true }).click()
  await page.waitForURL(/\/app\/payouts\/[^/]+$/)
  await page.locator('[data-testid="payout-status"][data-status="approved"]').waitFor({ timeout: 30_000 })
  expect(payoutRequests()).toBe(before + 1)
  const { data } = await app().api.get("/admin/payneteasy/payouts")
  expect(data.count).toBe(listBefore.count + 1)
  expect(data.payouts[0]).toMatchObject({ method: "single", amount: "12.00", currency_code: "EUR", status: "approved" })
  expect(app().pageErrors).toEqual([])
})

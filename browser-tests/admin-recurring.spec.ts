/**
 * Recurring payments in the dashboard (issue 14), in a real Chromium against the BUILT plugin (helpers/admin-app.ts)
 * and the sandbox over HTTP. An admin marks the product as a subscription in the product page's widget (a bad interval
 * is refused naming the field, before anything is saved), gives a variant its own schedule and removes it again —
 * each time checked through Medusa's admin API: exactly `metadata.payneteasy_recurring` changes, other metadata stays.
 */
import { generateKeyPairSync } from "node:crypto"
import { DEFAULT_SANDBOX_MERCHANT } from "../src/sandbox"
import { DEFAULT_PROVIDERS, useAdminApp } from "./helpers/admin-app"

jest.setTimeout(180_000)

const keys = generateKeyPairSync("rsa", { modulusLength: 2048 })

// The automatic-capture registration holds the private key (create-recurring-payment is v4, RSA-SHA256); the sandbox
// merchant knows the public half.
const app = useAdminApp({
  providers: DEFAULT_PROVIDERS.map((p) =>
    p.id === "auto" ? { ...p, options: { ...p.options, privateKey: keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString() } } : p
  ),
  sandbox: {
    merchants: [{
      ...DEFAULT_SANDBOX_MERCHANT,
      endpointIds: [...DEFAULT_SANDBOX_MERCHANT.endpointIds],
      endpointGroupIds: [...DEFAULT_SANDBOX_MERCHANT.endpointGroupIds],
      publicKeyPem: keys.publicKey.export({ type: "spki", format: "pem" }).toString(),
    }],
  },
})

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await probe()
    if (v) return v as T
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

const productMetadata = async () =>
  (await app().api.get(`/admin/products/${app().store.productId}?fields=id,metadata`)).data.product.metadata ?? {}
const variantMetadata = async () =>
  (await app().api.get(`/admin/products/${app().store.productId}/variants/${app().store.variantId}?fields=id,metadata`)).data.variant.metadata ?? {}

it("product page: mark the product as a monthly subscription (a bad interval is refused first); only metadata.payneteasy_recurring changes", async () => {
  const { api, page, store } = app()
  await api.post(`/admin/products/${store.productId}`, { metadata: { shelf: "A3" } })
  await app().gotoAdmin(`/products/${store.productId}`)
  const widget = page.getByTestId("payneteasy-subscription")
  await widget.waitFor()
  await expect(widget.getByTestId("payneteasy-subscription-state").textContent()).resolves.toBe("Not a subscription.")

  await widget.getByTestId("payneteasy-subscription-edit").click()
  await widget.getByTestId("payneteasy-subscription-interval").fill("0")
  await widget.getByTestId("payneteasy-subscription-save").click()
  await expect(widget.getByTestId("payneteasy-subscription-error").textContent()).resolves.toBe("interval must be a positive whole number")
  await widget.getByTestId("payneteasy-subscription-interval").fill("1.5")
  await widget.getByTestId("payneteasy-subscription-save").click()
  await expect(widget.getByTestId("payneteasy-subscription-error").textContent()).resolves.toBe("interval must be a whole number of periods")
  expect(await productMetadata()).toEqual({ shelf: "A3" })

  await widget.getByTestId("payneteasy-subscription-interval").fill("1")
  await widget.getByTestId("payneteasy-subscription-save").click()
  const saved = await waitFor("the schedule in the product's metadata", async () => {
    const m = await productMetadata()
    return m.payneteasy_recurring ? m : undefined
  })
  expect(saved).toEqual({ shelf: "A3", payneteasy_recurring: { period: "month", interval: 1 } })
  await waitFor("the widget to show the schedule", async () =>
    (await widget.getByTestId("payneteasy-subscription-state").textContent())?.includes("charged every month"))
  await app().screenshot("product-subscription", widget)
  expect(app().pageErrors).toEqual([])
})

it("variant page: a variant's own schedule (every 2 weeks) is saved on the variant, then removed after a confirmation", async () => {
  const { api, page, store } = app()
  await api.post(`/admin/products/${store.productId}/variants/${store.variantId}`, { metadata: { colour: "teal" } })
  await app().gotoAdmin(`/products/${store.productId}/variants/${store.variantId}`)
  const widget = page.getByTestId("payneteasy-subscription")
  await widget.waitFor()
  await widget.getByTestId("payneteasy-subscription-edit").click()
  await widget.getByTestId("payneteasy-subscription-period").click()
  await page.getByRole("option", { name: "week", exact: true }).click()
  await widget.getByTestId("payneteasy-subscription-interval").fill("2")
  await widget.getByTestId("payneteasy-subscription-save").click()
  await waitFor("the schedule in the variant's metadata", async () => (await variantMetadata()).payneteasy_recurring)
  expect(await variantMetadata()).toEqual({ colour: "teal", payneteasy_recurring: { period: "week", interval: 2 } })
  await waitFor("the widget to show the schedule", async () =>
    (await widget.getByTestId("payneteasy-subscription-state").textContent())?.includes("charged every 2 weeks"))

  await widget.getByTestId("payneteasy-subscription-remove").click()
  await page.getByRole("button", { name: "Remove schedule", exact: true }).click()
  await waitFor("the variant's schedule to be removed", async () => !("payneteasy_recurring" in (await variantMetadata())))
  expect(await variantMetadata()).toEqual({ colour: "teal" })
  // The product's own schedule is untouched.
  expect((await productMetadata()).payneteasy_recurring).toEqual({ period: "month", interval: 1 })
  await waitFor("the widget to show no schedule", async () =>
    (await widget.getByTestId("payneteasy-subscription-state").textContent()) === "Not a subscription.")
  expect(app().pageErrors).toEqual([])
})

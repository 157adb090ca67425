/**
 * What the shop and the payer do in the browser specs: register an order with the gateway client, fill the hosted
 * card form the way a person does (by label, then the Pay button), answer the 3-D Secure page with the password it
 * shows, wait until the browser lands back on the shop, and hand over the one request the shop received there —
 * after checking it was a real browser form navigation (POST, urlencoded, sec-fetch-mode navigate, Origin = the
 * sandbox's page), not a script's request.
 */
import type { Page } from "playwright-core"
import { verifyCallback } from "../../src/gateway"
import type { Harness } from "./harness"

/** Luhn-valid test Visa (the sandbox accepts any Luhn-valid number; CVV2 picks the outcome). */
export const VISA = "4444555566661111"
export const HOLDER = "JANE PAYER"

/** Payer fields every payment operation requires (SALE / SALEFORM / PREAUTHFORM). */
export function orderFields(h: Harness, clientOrderId: string, amount = "10.42"): Record<string, string> {
  return {
    client_orderid: clientOrderId, order_desc: "Browser test order", amount, currency: "EUR",
    address1: "1 Main St", city: "Riga", zip_code: "LV-1010", country: "LV", phone: "+37120000000",
    email: "payer@example.com", ipaddress: "127.0.0.1", redirect_url: h.merchant.returnUrl,
  }
}

/** Registers a hosted-page order; returns the gateway's orderid and the page the payer is sent to. */
export async function registerHosted(
  h: Harness,
  op: "SALEFORM" | "PREAUTHFORM",
  clientOrderId: string,
): Promise<{ orderid: string; pageUrl: string }> {
  const r = await h.client.request(op, orderFields(h, clientOrderId))
  expect(r.type).toBe("async-form-response")
  const pageUrl = String(r["redirect-url"])
  expect(pageUrl.startsWith(`${h.sandbox.url}/form/`)).toBe(true)
  return { orderid: String(r["paynet-order-id"]), pageUrl }
}

export interface TypedCard {
  number?: string
  holder?: string
  month?: string
  year?: string
  cvv2: string
}

/** Types the card like a person: each field found by its visible label, then a click on "Pay". */
export async function fillCardAndPay(page: Page, card: TypedCard): Promise<void> {
  await page.getByLabel("Card number").fill(card.number ?? VISA)
  await page.getByLabel("Name on card").fill(card.holder ?? HOLDER)
  await page.getByLabel("Expiry month").fill(card.month ?? "12")
  await page.getByLabel("Expiry year").fill(card.year ?? "2099")
  await page.getByLabel("CVV2").fill(card.cvv2)
  await page.getByRole("button", { name: "Pay" }).click()
}

/** On the 3-D Secure page: reads the password the page shows in its hint, types it (or `override`), confirms. */
export async function answerChallenge(h: Pick<Harness, "page" | "sandbox">, override?: string): Promise<string> {
  const { page } = h
  await page.waitForURL((u) => u.href.startsWith(`${h.sandbox.url}/acs/`))
  await page.getByRole("heading", { name: "3-D Secure verification" }).waitFor()
  const hint = (await page.locator("#hint").textContent()) ?? ""
  const shown = /“([^”]+)”/.exec(hint)?.[1]
  if (!shown) throw new Error(`the 3-D Secure page shows no password hint: ${JSON.stringify(hint)}`)
  await page.getByLabel("Password").fill(override ?? shown)
  await page.getByRole("button", { name: "Confirm" }).click()
  return shown
}

/**
 * Waits until the browser shows the shop's page at redirect_url, then returns the parameters of the single request
 * the shop received for this order, having checked it was the browser's own form POST from the sandbox's page.
 */
export async function landedAtShop(h: Harness, clientOrderId: string): Promise<Record<string, string>> {
  const { page, merchant, sandbox } = h
  await page.waitForURL(merchant.returnUrl)
  const hits = merchant.returnsFor(clientOrderId)
  expect(hits).toHaveLength(1)
  const [hit] = hits
  expect(hit.method).toBe("POST")
  expect(hit.headers["content-type"]).toBe("application/x-www-form-urlencoded")
  expect(hit.headers["sec-fetch-mode"]).toBe("navigate")
  expect(hit.headers.origin).toBe(sandbox.origin)
  const params: Record<string, string> = {}
  for (const [k, v] of Object.entries(hit.params)) {
    if (typeof v !== "string") throw new Error(`the shop received ${k} more than once: ${JSON.stringify(v)}`)
    params[k] = v
  }
  await expect(page.locator("#merchant-result").textContent()).resolves.toBe(`Shop received: ${params.status}`)
  return params
}

/** The final-redirect control verifies with the client's code, and stops verifying when the status is altered. */
export function expectSignedBy(params: Record<string, string>, controlKey: string): void {
  expect(verifyCallback(params, controlKey)).toBe(true)
  const forged = params.status === "approved" ? "declined" : "approved"
  expect(verifyCallback({ ...params, status: forged }, controlKey)).toBe(false)
  expect(verifyCallback(params, `${controlKey}X`)).toBe(false)
}

/** No card number or CVV2 in anything the shop receives. */
export function expectNoCardData(params: Record<string, string>, cvv2: string): void {
  expect(Object.keys(params)).not.toContain("credit_card_number")
  expect(Object.keys(params)).not.toContain("cvv2")
  for (const v of Object.values(params)) expect(v).not.toContain(VISA)
  expect(Object.values(params)).not.toContain(cvv2)
}

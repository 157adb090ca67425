/**
 * Hosted payment page in a real Chromium: the shop registers a SALEFORM / PREAUTHFORM order with the gateway client,
 * the payer opens the sandbox's card page, types the card like a person and clicks Pay; the sandbox's pages (wait
 * page with meta refresh, 3-D Secure ACS page, auto-submitting final form) must carry the browser back to the shop's
 * redirect_url with a POST of the signed final-redirect parameters. Each test checks what the shop received (the
 * control verifies with src/gateway/callback.ts) against what the sandbox and the STATUS operation say.
 *
 * Set BROWSER_TEST_SCREENSHOTS=<dir> to save a screenshot of the card page there (for a human to look at).
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { ACS_PASSWORD } from "../src/sandbox"
import { M, useBrowserHarness } from "./helpers/harness"
import {
  answerChallenge, expectNoCardData, expectSignedBy, fillCardAndPay, HOLDER, landedAtShop, registerHosted,
} from "./helpers/shop"

const h = useBrowserHarness()

it("CVV 123: the card form pays and the browser POSTs the signed approval to redirect_url", async () => {
  const { page, sandbox, client } = h()
  const { orderid, pageUrl } = await registerHosted(h(), "SALEFORM", "br-approve")

  await page.goto(pageUrl)
  await expect(page.title()).resolves.toBe("Card payment")
  await expect(page.locator("#amount").textContent()).resolves.toBe("10.42 EUR")
  const shots = process.env.BROWSER_TEST_SCREENSHOTS
  if (shots) {
    mkdirSync(shots, { recursive: true })
    await page.screenshot({ path: join(shots, "hosted-card-page.png"), fullPage: true })
  }
  await fillCardAndPay(page, { cvv2: "123" })

  const params = await landedAtShop(h(), "br-approve")
  expect(params).toMatchObject({
    status: "approved", orderid, client_orderid: "br-approve", merchant_order: "br-approve", amount: "10.42",
    type: "sale", "last-four-digits": "1111", bin: "444455", "card-holder-name": HOLDER, error_code: "",
  })
  expectSignedBy(params, M.controlKey)
  expectNoCardData(params, "123")
  expect(sandbox.control.transaction(orderid)).toMatchObject({ status: "approved", authorized: "10.42" })
  await expect(client.request("STATUS", { client_orderid: "br-approve", orderid })).resolves.toMatchObject({
    status: "approved", "transaction-type": "sale", amount: "10.42",
  })
})

it("PREAUTHFORM, CVV 321: the 3-D Secure page appears, the password it shows approves the hold", async () => {
  const { page, sandbox } = h()
  const { orderid, pageUrl } = await registerHosted(h(), "PREAUTHFORM", "br-3ds-pass")

  await page.goto(pageUrl)
  await fillCardAndPay(page, { cvv2: "321" })
  await expect(answerChallenge(h())).resolves.toBe(ACS_PASSWORD)

  const params = await landedAtShop(h(), "br-3ds-pass")
  expect(params).toMatchObject({ status: "approved", orderid, type: "preauth", amount: "10.42" })
  expectSignedBy(params, M.controlKey)
  expectNoCardData(params, "321")
  expect(sandbox.control.transaction(orderid)).toMatchObject({
    status: "approved", authorized: "10.42", captured: "0.00", threeDS: { pending: false, result: "pass", via: "ACS page" },
  })
})

it("CVV 321 with a wrong 3-D Secure password ends declined at the shop", async () => {
  const { page, sandbox } = h()
  const { orderid, pageUrl } = await registerHosted(h(), "SALEFORM", "br-3ds-fail")

  await page.goto(pageUrl)
  await fillCardAndPay(page, { cvv2: "321" })
  await answerChallenge(h(), "not-the-password")

  const params = await landedAtShop(h(), "br-3ds-fail")
  expect(params).toMatchObject({ status: "declined", orderid, error_code: "301" })
  expect(params.error_message).toMatch(/3-D Secure/)
  expectSignedBy(params, M.controlKey)
  expect(sandbox.control.transaction(orderid)).toMatchObject({
    status: "declined", authorized: "0.00", threeDS: { result: "fail", via: "ACS page" },
  })
})

it("CVV 116: a declining card ends declined at the shop with the issuer's reason", async () => {
  const { page, sandbox, client } = h()
  const { orderid, pageUrl } = await registerHosted(h(), "SALEFORM", "br-decline")

  await page.goto(pageUrl)
  await fillCardAndPay(page, { cvv2: "116" })

  const params = await landedAtShop(h(), "br-decline")
  expect(params).toMatchObject({ status: "declined", orderid, error_code: "116" })
  expect(params.error_message).toMatch(/insufficient funds/i)
  expectSignedBy(params, M.controlKey)
  const view = sandbox.control.transaction(orderid)
  expect(view?.status).toBe("declined")
  expect(view?.transactions[0].error).toEqual({ code: "116", message: params.error_message })
  await expect(client.request("STATUS", { client_orderid: "br-decline", orderid })).resolves.toMatchObject({
    status: "declined", "error-code": "116",
  })
})

it("the browser refuses an empty form, the page shows the gateway's refusal of a bad number, then the card pays", async () => {
  const { page, sandbox } = h()
  const { orderid, pageUrl } = await registerHosted(h(), "SALEFORM", "br-retype")
  const posts: string[] = []
  page.on("request", (r) => {
    if (r.method() === "POST") posts.push(r.url())
  })

  await page.goto(pageUrl)
  await page.getByRole("button", { name: "Pay" }).click()
  // `required` inputs: Chromium's own validation keeps the form from being sent at all.
  await expect(page.getByLabel("Card number").evaluate((el) => (el as HTMLInputElement).validity.valueMissing)).resolves.toBe(true)
  expect(posts).toEqual([])
  expect(page.url()).toBe(pageUrl)

  await fillCardAndPay(page, { number: "4444555566661112", cvv2: "123" }) // fails the Luhn check
  await expect(page.locator("#form-error").textContent()).resolves.toMatch(/card number/i)
  expect(posts).toEqual([pageUrl])
  expect(sandbox.control.transaction(orderid)?.transactions[0].status).toBe("processing")

  await fillCardAndPay(page, { cvv2: "123" })
  const params = await landedAtShop(h(), "br-retype")
  expect(params).toMatchObject({ status: "approved", orderid })
  expectSignedBy(params, M.controlKey)
})

it("with JavaScript off, the final page's Continue button still POSTs the signed result to the shop", async () => {
  const x = h()
  const { orderid, pageUrl } = await registerHosted(x, "SALEFORM", "br-nojs")
  const context = await x.browser.newContext({ javaScriptEnabled: false })
  try {
    const page = await context.newPage()
    page.setDefaultTimeout(15_000)
    await page.goto(pageUrl)
    await fillCardAndPay(page, { cvv2: "123" })
    // The wait page refreshes by <meta>, no script needed; the final form waits for the payer.
    await page.getByRole("button", { name: "Continue" }).click()
    const params = await landedAtShop({ ...x, page }, "br-nojs")
    expect(params).toMatchObject({ status: "approved", orderid })
    expectSignedBy(params, M.controlKey)
  } finally {
    await context.close()
  }
})

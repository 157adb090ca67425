/**
 * Direct (server-to-server) 3-D Secure in a real Chromium: the shop sends SALE with the card itself (CVV 321 asks for
 * a challenge), polls STATUS until it carries the payer's next step, and sends the browser there — either to the
 * `redirect-to` URL, or by rendering the `html` the gateway returns (an auto-submitting POST form to the ACS).
 * The payer answers the ACS page and the sandbox's final form must bring the browser back to the shop's
 * redirect_url with the signed approval.
 */
import type { Request } from "playwright-core"
import { M, useBrowserHarness, type Harness } from "./helpers/harness"
import { answerChallenge, expectNoCardData, expectSignedBy, HOLDER, landedAtShop, orderFields, VISA } from "./helpers/shop"

const h = useBrowserHarness()

/** SALE with the card (CVV 321), then STATUS until the gateway names the payer's 3-D Secure step. */
async function saleNeeding3ds(x: Harness, clientOrderId: string) {
  const r = await x.client.request("SALE", {
    ...orderFields(x, clientOrderId), card_printed_name: HOLDER, credit_card_number: VISA, expire_month: "12",
    expire_year: "2099", cvv2: "321",
  })
  expect(r.type).toBe("async-response")
  const orderid = String(r["paynet-order-id"])
  // Polls until the answer changes (bounded by attempts, not a timing assertion).
  for (let attempt = 0; attempt < 200; attempt++) {
    const st = await x.client.request("STATUS", { client_orderid: clientOrderId, orderid })
    if (st["redirect-to"] !== undefined) {
      expect(st).toMatchObject({ status: "processing", "order-stage": "sale_3d_validating" })
      return { orderid, redirectTo: String(st["redirect-to"]), html: String(st.html ?? "") }
    }
    expect(st.status).toBe("processing")
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`STATUS of ${orderid} never carried redirect-to`)
}

it("redirect-to opens the ACS page; the shown password approves and the browser returns to the shop", async () => {
  const { page, sandbox, client } = h()
  const { orderid, redirectTo } = await saleNeeding3ds(h(), "br-direct")
  expect(redirectTo.startsWith(`${sandbox.url}/acs/`)).toBe(true)

  await page.goto(redirectTo)
  await answerChallenge(h())

  const params = await landedAtShop(h(), "br-direct")
  expect(params).toMatchObject({ status: "approved", orderid, type: "sale", amount: "10.42", "last-four-digits": "1111" })
  expectSignedBy(params, M.controlKey)
  expectNoCardData(params, "321")
  expect(sandbox.control.transaction(orderid)).toMatchObject({ status: "approved", threeDS: { result: "pass", via: "ACS page" } })
  await expect(client.request("STATUS", { client_orderid: "br-direct", orderid })).resolves.toMatchObject({ status: "approved" })
})

it("the html from STATUS, rendered as is, POSTs itself to the ACS page; the challenge then approves", async () => {
  const { page, sandbox } = h()
  const { orderid, redirectTo, html } = await saleNeeding3ds(h(), "br-direct-html")
  expect(html).toContain("<form")
  const toAcs: Request[] = []
  page.on("request", (r) => {
    if (r.url() === redirectTo) toAcs.push(r)
  })

  // The page's own onload script must submit the form: nothing here clicks.
  await page.setContent(html)
  await page.waitForURL(redirectTo)
  await page.locator("#acs-form").waitFor()
  expect(toAcs.map((r) => r.method())).toEqual(["POST"])
  expect(new URLSearchParams(toAcs[0].postData() ?? "").get("MD")).toBe(orderid)

  await answerChallenge(h())
  const params = await landedAtShop(h(), "br-direct-html")
  expect(params).toMatchObject({ status: "approved", orderid })
  expectSignedBy(params, M.controlKey)
  expect(sandbox.control.transaction(orderid)?.status).toBe("approved")
})

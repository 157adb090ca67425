/**
 * Payer-facing flows: hosted pages driven by the shopper helper (with and without a 3-D Secure challenge), the
 * signed final redirect, direct 3-D Secure through redirect-to and the ACS page, and the 3DS upload operations.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { completeChallenge, payHostedPage, startSandbox, type Sandbox } from "../index"
import { call, formFields, KEY, LOGIN, saleFields, sha1, VISA, followControl } from "./raw"

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, processingMs: 10 })
})
afterAll(() => sb.close())
afterEach(() => sb.control.reset())

const card = (cvv2: string) => ({ number: VISA, cvv2, expMonth: "12", expYear: "2099", holder: "JOHN DOE" })

async function hosted(cid: string, op: "SALEFORM" | "PREAUTHFORM" | "PAYMENTFORM" = "SALEFORM", over: Record<string, string> = {}) {
  const r = await call(sb.url, op, formFields(cid, over))
  expect(r.status).toBe(200)
  expect(r.body.type).toBe("async-form-response")
  return { orderid: String(r.body["paynet-order-id"]), page: String(r.body["redirect-url"]) }
}

const tdsControl = (cid: string, orderid: string) => sha1(LOGIN + cid + orderid + KEY)

describe("hosted payment pages", () => {
  it("sale-form without 3DS ends in a signed final redirect to redirect_url", async () => {
    const { orderid, page } = await hosted("hp-1")
    expect(page.startsWith(`${sb.url}/form/`)).toBe(true)
    expect(sb.control.transaction(orderid)).toMatchObject({ status: "processing" })
    const out = await payHostedPage(page, card("123"))
    expect(out.returnUrl).toBe("http://127.0.0.1:9/return")
    expect(out.params).toMatchObject({
      status: "approved", orderid, merchant_order: "hp-1", client_orderid: "hp-1", amount: "10.42", type: "sale",
      bin: "444455", "last-four-digits": "1111", "card-type": "VISA", "card-holder-name": "JOHN DOE",
      "processor-tx-id": `PNTEST-${orderid}`,
    })
    expect(out.params.control).toBe(sha1("approved" + orderid + "hp-1" + KEY))
    expect(Object.keys(out.params)).toEqual(expect.arrayContaining(["error_message", "error_code", "descriptor"]))
  })

  it("preauth-form with CVV2 321 goes through the ACS page; the right password approves", async () => {
    const { orderid, page } = await hosted("hp-2", "PREAUTHFORM")
    const out = await payHostedPage(page, card("321"), { threeDS: "pass" })
    expect(out.params).toMatchObject({ status: "approved", type: "preauth" })
    expect(sb.control.transaction(orderid)?.threeDS).toMatchObject({ result: "pass", via: "ACS page" })
  })

  it("a wrong ACS password declines", async () => {
    const { orderid, page } = await hosted("hp-3")
    const out = await payHostedPage(page, card("321"), { threeDS: "fail" })
    expect(out.params.status).toBe("declined")
    expect(out.params.error_message).toMatch(/3-D Secure/)
    expect(out.params.control).toBe(sha1("declined" + orderid + "hp-3" + KEY))
  })

  it("a declining card ends declined with its reason", async () => {
    const { page } = await hosted("hp-4", "PAYMENTFORM")
    const out = await payHostedPage(page, card("116"))
    expect(out.params).toMatchObject({ status: "declined", error_code: "116" })
  })

  it("re-renders the form with an error for an invalid card and keeps the order waiting", async () => {
    const { orderid, page } = await hosted("hp-5")
    await expect(payHostedPage(page, { ...card("123"), number: "1234" })).rejects.toThrow(/400: Invalid credit card number/)
    expect(sb.control.transaction(orderid)?.transactions[0].status).toBe("processing")
    const out = await payHostedPage(page, card("123"))
    expect(out.params.status).toBe("approved")
  })

  it("followReturn POSTs the final form to the merchant like a browser", async () => {
    let received = ""
    const merchant: Server = createServer((req, res) => {
      let body = ""
      req.on("data", (c) => (body += c))
      req.on("end", () => {
        received = `${req.method} ${req.url} ${body}`
        res.writeHead(303, { location: "/thanks" }).end()
      })
    })
    await new Promise<void>((r) => merchant.listen(0, "127.0.0.1", r))
    try {
      const port = (merchant.address() as AddressInfo).port
      const { page } = await hosted("hp-6", "SALEFORM", { redirect_url: `http://127.0.0.1:${port}/return?cart=9` })
      const out = await payHostedPage(page, card("123"), { followReturn: true })
      expect(out.returnResponse?.status).toBe(303)
      expect(received).toMatch(/^POST \/return\?cart=9 .*status=approved/)
      expect(received).toContain("control=")
    } finally {
      merchant.close()
    }
  })

  it("account-verification-form checks the card without an amount", async () => {
    const f = formFields("av-1")
    delete f.amount
    delete f.currency
    f.control = sha1("1111" + "av-1" + "payer@example.com" + KEY)
    const r = await call(sb.url, "ACCOUNT_VERIFICATION_FORM", f)
    expect(r.status).toBe(200)
    const out = await payHostedPage(String(r.body["redirect-url"]), card("123"))
    expect(out.params).toMatchObject({ status: "approved", type: "account-verification" })
  })
})

describe("direct 3-D Secure", () => {
  async function direct3ds(cid: string) {
    const r = await call(sb.url, "SALE", saleFields(cid, { cvv2: "321" }))
    const orderid = String(r.body["paynet-order-id"])
    await sb.control.waitForOutcome(orderid)
    const s = await call(sb.url, "STATUS", { login: LOGIN, client_orderid: cid, orderid, control: followControl(cid, orderid) })
    return { orderid, status: s.body }
  }

  it("completes the challenge at redirect-to and redirects to redirect_url", async () => {
    const { orderid, status } = await direct3ds("d3-1")
    const out = await completeChallenge(String(status["redirect-to"]), "pass")
    expect(out.params).toMatchObject({ status: "approved", orderid, client_orderid: "d3-1" })
    expect(out.params.control).toBe(sha1("approved" + orderid + "d3-1" + KEY))
  })

  it("the html form posts to the ACS page, which asks for the password", async () => {
    const { status } = await direct3ds("d3-2")
    const html = String(status.html)
    const action = /action="([^"]+)"/.exec(html)?.[1] as string
    const res = await fetch(action, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "PaReq=x&MD=y" })
    const page = await res.text()
    expect(page).toContain('name="password"')
    expect(page).toContain("secret")
  })

  it("a failed challenge declines", async () => {
    const { orderid, status } = await direct3ds("d3-3")
    const out = await completeChallenge(String(status["redirect-to"]), "fail")
    expect(out.params.status).toBe("declined")
    expect(sb.control.transaction(orderid)?.status).toBe("declined")
  })
})

describe("3DS upload operations", () => {
  async function pending(cid: string) {
    const r = await call(sb.url, "SALE", saleFields(cid, { cvv2: "321" }))
    const orderid = String(r.body["paynet-order-id"])
    await sb.control.waitForOutcome(orderid)
    return orderid
  }
  const upload = (op: "TDS_UPLOAD_CRES_RESULT" | "TDS_UPLOAD_PARES_RESULT" | "TDS_UPLOAD_METHOD_URL_RESULT", cid: string, orderid: string, extra: Record<string, string>) =>
    call(sb.url, op, { login: LOGIN, "client-order-id": cid, orderid, control: tdsControl(cid, orderid), ...extra })

  it("records the 3DS Method result (Y, N, U) and refuses other values", async () => {
    const orderid = await pending("up-1")
    for (const ind of ["Y", "N", "U"]) {
      const r = await upload("TDS_UPLOAD_METHOD_URL_RESULT", "up-1", orderid, { threeDSCompInd: ind })
      expect(r.body).toMatchObject({ type: "async-response", "paynet-order-id": Number(orderid) })
    }
    expect(sb.control.transaction(orderid)?.threeDS?.methodCompInd).toBe("U")
    expect((await upload("TDS_UPLOAD_METHOD_URL_RESULT", "up-1", orderid, { threeDSCompInd: "X" })).status).toBe(400)
  })

  it("a CRes answers the challenge: any value but 'fail' approves", async () => {
    const orderid = await pending("up-2")
    expect((await upload("TDS_UPLOAD_CRES_RESULT", "up-2", orderid, { cRes: "eyJ0cmFuc1N0YXR1cyI6IlkifQ" })).status).toBe(200)
    expect((await sb.control.waitForOutcome(orderid)).status).toBe("approved")
  })

  it("a PaRes of 'fail' declines, and a second upload is refused", async () => {
    const orderid = await pending("up-3")
    await upload("TDS_UPLOAD_PARES_RESULT", "up-3", orderid, { paRes: "fail" })
    expect((await sb.control.waitForOutcome(orderid)).status).toBe("declined")
    expect((await upload("TDS_UPLOAD_PARES_RESULT", "up-3", orderid, { paRes: "ok" })).status).toBe(400)
  })

  it("refuses uploads for an order without a pending challenge, and a bad control", async () => {
    const r = await call(sb.url, "SALE", saleFields("up-4"))
    const orderid = String(r.body["paynet-order-id"])
    await sb.control.waitForOutcome(orderid)
    expect((await upload("TDS_UPLOAD_CRES_RESULT", "up-4", orderid, { cRes: "x" })).body["error-message"]).toMatch(/3-D Secure/)
    const pend = await pending("up-5")
    const bad = await upload("TDS_UPLOAD_CRES_RESULT", "up-5", pend, { cRes: "x", control: "0".repeat(40) })
    expect(bad.body["error-message"]).toMatch(/control/)
  })
})

describe("formats of payer-facing data", () => {
  it("legacy status carries html url-encoded once (decoded by one form parse)", async () => {
    const r = await call(sb.url, "SALE", saleFields("lg-3ds", { cvv2: "321" }))
    const orderid = String(r.body["paynet-order-id"])
    await sb.control.waitForOutcome(orderid)
    const s = await call(sb.url, "STATUS", { login: LOGIN, client_orderid: "lg-3ds", orderid, control: followControl("lg-3ds", orderid) }, { accept: null })
    expect(s.text).toMatch(/\n&html=%3Chtml%3E/)
    expect(String(s.body.html)).toMatch(/^<html><body onload="document\.forms\[0\]\.submit\(\)"><form method="POST" action="http/)
    expect(String(s.body["redirect-to"])).toBe(sb.control.transaction(orderid)?.acsUrl)
  })

  it("escapes merchant-supplied text on the hosted page", async () => {
    // the page shows the order's description (order_desc), never the client_orderid: both carry the markup here
    const { page } = await hosted('<b id="x">', "SALEFORM", { order_desc: '<b id="x">' })
    const html = await (await fetch(page)).text()
    expect(html).not.toContain('<b id="x">')
    expect(html).toContain("&lt;b id=&quot;x&quot;&gt;")
  })
})

/**
 * The sandbox refuses what the gateway refuses: wrong method, bad control, missing fields, unknown endpoints, bad
 * content type — each as the gateway's validation error (JSON 400 / legacy 200) naming the problem.
 */
import { startSandbox, type Sandbox } from "../index"
import { call, cents, ENDPOINT, GROUP, KEY, parseLegacy, saleFields, sha1 } from "./raw"

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, processingMs: 20 })
})
afterAll(() => sb.close())
afterEach(() => sb.control.reset())

describe("request format", () => {
  it("answers GET with 405 and Allow: POST", async () => {
    const res = await fetch(`${sb.url}/api/v2/sale/${ENDPOINT}`)
    expect(res.status).toBe(405)
    expect(res.headers.get("allow")).toBe("POST")
  })

  it("answers unknown paths with 404", async () => {
    const res = await fetch(`${sb.url}/api/v2/nothing/${ENDPOINT}`, { method: "POST" })
    expect(res.status).toBe(404)
  })

  it("replies in the legacy key=value format when Accept is missing", async () => {
    const r = await call(sb.url, "SALE", saleFields("legacy-1"), { accept: null })
    expect(r.status).toBe(200)
    expect(r.contentType).toBe("text/html;charset=utf-8")
    expect(r.text).toMatch(/^type=async-response\n&serial-number=[^\n]+\n&merchant-order-id=legacy-1\n&paynet-order-id=\d+\n/)
    expect(r.text.endsWith("\n")).toBe(true)
    expect(r.body["paynet-order-id"]).toMatch(/^\d+$/)
  })

  it("replies with JSON for Accept: application/vnd.pay+json, paynet-order-id as a number", async () => {
    const r = await call(sb.url, "SALE", saleFields("json-1"))
    expect(r.status).toBe(200)
    expect(r.contentType).toContain("application/vnd.pay+json")
    expect(r.body).toMatchObject({ type: "async-response", "merchant-order-id": "json-1", "end-point-id": ENDPOINT })
    expect(typeof r.body["paynet-order-id"]).toBe("number")
  })

  it("refuses a body that is not form-urlencoded", async () => {
    const res = await fetch(`${sb.url}/api/v2/sale/${ENDPOINT}`, {
      method: "POST", headers: { accept: "application/vnd.pay+json", "content-type": "application/json" }, body: "{}",
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as Record<string, string>)["error-message"]).toMatch(/x-www-form-urlencoded/)
  })

  it("refuses an empty body", async () => {
    const r = await call(sb.url, "SALE", {})
    expect(r.status).toBe(400)
    expect(r.body["error-message"]).toMatch(/body is required/)
  })
})

describe("control and fields", () => {
  it("refuses a bad control with a validation error naming control (JSON: 400)", async () => {
    const r = await call(sb.url, "SALE", saleFields("bad-1", { control: "0".repeat(40) }))
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ type: "validation-error", "error-code": "1" })
    expect(r.body["error-message"]).toMatch(/control/)
    expect(sb.control.transactions()).toHaveLength(0)
  })

  it("refuses an uppercase control (the checksum is lowercase hex)", async () => {
    const f = saleFields("upper-1")
    const r = await call(sb.url, "SALE", { ...f, control: f.control.toUpperCase() })
    expect(r.status).toBe(400)
  })

  it("returns validation errors with HTTP 200 in legacy mode", async () => {
    const r = await call(sb.url, "SALE", saleFields("bad-2", { control: "x" }), { accept: "text/html" })
    expect(r.status).toBe(200)
    expect(parseLegacy(r.text)).toMatchObject({ type: "validation-error" })
  })

  it.each(["client_orderid", "email", "credit_card_number", "redirect_url", "amount"])(
    "names a missing required field: %s",
    async (name) => {
      const f = saleFields("miss-1")
      delete f[name]
      const r = await call(sb.url, "SALE", f)
      expect(r.status).toBe(400)
      expect(r.body["error-message"]).toBe(`Missing required field: ${name}`)
    },
  )

  it("treats a whitespace-only field as missing and trims values before hashing", async () => {
    const f = saleFields("trim-1")
    const padded = { ...f, client_orderid: "  trim-1 ", email: " payer@example.com  " }
    expect((await call(sb.url, "SALE", padded)).status).toBe(200)
    const r = await call(sb.url, "SALE", { ...f, order_desc: "   " })
    expect(r.body["error-message"]).toBe("Missing required field: order_desc")
  })

  it("refuses an unknown endpoint id", async () => {
    const r = await call(sb.url, "SALE", saleFields("ep-1"), { endpoint: "9999" })
    expect(r.status).toBe(400)
    expect(r.body["error-message"]).toMatch(/Unknown endpoint/)
  })

  it("accepts the endpoint group URL with the group id in the control", async () => {
    const f = saleFields("grp-1", { control: sha1(GROUP + "grp-1" + cents("10.42") + "payer@example.com" + KEY) })
    const r = await call(sb.url, "SALE", f, { group: true })
    expect(r.status).toBe(200)
    expect(sb.control.transaction(String(r.body["paynet-order-id"]))?.endpointKey).toBe(`group:${GROUP}`)
    const wrong = await call(sb.url, "SALE", saleFields("grp-2"), { group: true })
    expect(wrong.status).toBe(400)
  })

  it("refuses a login that is not the endpoint's merchant", async () => {
    const r = await call(sb.url, "STATUS", { login: "someone-else", client_orderid: "x", control: "0" })
    expect(r.body["error-message"]).toMatch(/login/)
  })

  it("computes minor units by the currency exponent (JPY 0, KWD 3)", async () => {
    const jpy = saleFields("jpy-1", { amount: "1000", currency: "JPY", control: sha1(ENDPOINT + "jpy-1" + "1000" + "payer@example.com" + KEY) })
    expect((await call(sb.url, "SALE", jpy)).status).toBe(200)
    const kwd = saleFields("kwd-1", { amount: "1.234", currency: "KWD", control: sha1(ENDPOINT + "kwd-1" + "1234" + "payer@example.com" + KEY) })
    expect((await call(sb.url, "SALE", kwd)).status).toBe(200)
    const tooPrecise = saleFields("eur-3", { amount: "1.234", control: sha1(ENDPOINT + "eur-3" + "1234" + "payer@example.com" + KEY) })
    const r = await call(sb.url, "SALE", tooPrecise)
    expect(r.status).toBe(400)
    expect(r.body["error-message"]).toMatch(/decimals/)
  })

  it("refuses an invalid card number without echoing it", async () => {
    const r = await call(sb.url, "SALE", saleFields("pan-1", { credit_card_number: "4444555566661112" }))
    expect(r.status).toBe(400)
    expect(r.body["error-message"]).toBe("Invalid credit card number")
    expect(r.text).not.toContain("4444555566661112")
  })
})

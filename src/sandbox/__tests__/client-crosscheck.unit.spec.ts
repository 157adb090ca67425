/**
 * Cross-check: the gateway client (src/gateway, written separately) drives the sandbox (its own verification).
 * Each side computes control, OAuth and minor units with its own code, so agreement here means both follow the
 * same reading of the docs; a disagreement fails one of these tests.
 */
import { generateKeyPairSync } from "node:crypto"
import {
  GatewayAuthError,
  GatewayTransportError,
  GatewayValidationError,
  PaynetEasyClient,
  verifyCallback,
  type GatewayConfig,
} from "../../gateway"
import { completeChallenge, DEFAULT_SANDBOX_MERCHANT, payHostedPage, startSandbox, type Sandbox } from "../index"
import { startMerchant } from "./merchant-server"
import { VISA } from "./raw"

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
const privateKeyPem = privateKey.export({ type: "pkcs1", format: "pem" }).toString()
const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString()
const M = DEFAULT_SANDBOX_MERCHANT

let sb: Sandbox
let client: PaynetEasyClient
const clients: PaynetEasyClient[] = []
const make = (over: Partial<GatewayConfig> = {}) => {
  const c = new PaynetEasyClient({
    baseUrl: sb.url, endpointId: M.endpointIds[0], login: M.login, controlKey: M.controlKey, privateKeyPem, ...over,
  })
  clients.push(c)
  return c
}

beforeAll(async () => {
  sb = await startSandbox({
    port: 0, processingMs: 5, callbackBackoffMs: 10,
    merchants: [{ ...M, endpointIds: [...M.endpointIds], endpointGroupIds: [...M.endpointGroupIds], publicKeyPem }],
  })
  client = make()
})
afterAll(async () => {
  for (const c of clients) await c.close()
  await sb.close()
})
afterEach(() => sb.control.reset())

const payer = {
  order_desc: "Cross-check", address1: "1 Main St", city: "Riga", zip_code: "LV-1010", country: "LV",
  phone: "+37120000000", email: "payer@example.com", ipaddress: "127.0.0.1", redirect_url: "http://127.0.0.1:9/return",
}
const cardFields = (cvv2: string) => ({
  card_printed_name: "JOHN DOE", credit_card_number: VISA, expire_month: "12", expire_year: "2099", cvv2,
})
const shopperCard = (cvv2: string) => ({ number: VISA, cvv2, expMonth: "12", expYear: "2099", holder: "JOHN DOE" })

async function sale(cid: string, op: "SALE" | "PREAUTH" = "SALE", cvv2 = "123", extra: Record<string, string> = {}) {
  const r = await client.request(op, { client_orderid: cid, amount: "10.42", currency: "EUR", ...payer, ...cardFields(cvv2), ...extra })
  const orderid = String(r["paynet-order-id"])
  await sb.control.waitForOutcome(orderid)
  return orderid
}

it("sale, status, partial capture and return agree on control and minor units", async () => {
  const orderid = await sale("cc-1", "PREAUTH")
  const st = await client.request("STATUS", { client_orderid: "cc-1", orderid })
  expect(st).toMatchObject({ status: "approved", "transaction-type": "preauth", "paynet-order-id": orderid })
  await client.request("CAPTURE", { client_orderid: "cc-1", orderid, amount: "4.4", currency: "eur" })
  await sb.control.waitForOutcome(orderid)
  await client.request("RETURN", { client_orderid: "cc-1", orderid, amount: "1.40", currency: "EUR" })
  const v = await sb.control.waitForOutcome(orderid)
  expect(v).toMatchObject({ captured: "4.40", returned: "1.40" })
  await expect(client.request("CAPTURE", { client_orderid: "cc-1", orderid, amount: "6.03", currency: "EUR" })).rejects.toBeInstanceOf(
    GatewayValidationError,
  )
})

it("exponent 0 and 3 currencies sign the same way on both sides", async () => {
  for (const [cid, amount, currency] of [["cc-jpy", "1000", "JPY"], ["cc-kwd", "1.234", "KWD"], ["cc-bhd", "0.5", "BHD"]]) {
    const r = await client.request("SALE", { client_orderid: cid, amount, currency, ...payer, ...cardFields("123") })
    expect(r.type).toBe("async-response")
  }
  expect(sb.control.byClientOrderId("cc-bhd")[0].initialAmount).toBe("0.500")
})

it("void and status by client_orderid", async () => {
  const orderid = await sale("cc-2")
  await client.request("VOID", { client_orderid: "cc-2", orderid })
  await sb.control.waitForOutcome(orderid)
  const st = await client.request("STATUS", { client_orderid: "cc-2" })
  expect(st).toMatchObject({ "transaction-type": "void", status: "approved", amount: "0.00" })
})

it("the endpoint group URL works with the group id in the control", async () => {
  const group = make({ endpointId: undefined, endpointGroupId: M.endpointGroupIds[0] })
  const r = await group.request("SALE", { client_orderid: "cc-g", amount: "1.00", currency: "EUR", ...payer, ...cardFields("123") })
  expect(sb.control.transaction(String(r["paynet-order-id"]))?.endpointKey).toBe("group:2222")
})

it("hosted sale-form: the final redirect verifies with the client's verifyCallback", async () => {
  const r = await client.request("SALEFORM", { client_orderid: "cc-3", amount: "10.42", currency: "EUR", ...payer })
  const out = await payHostedPage(r["redirect-url"], shopperCard("321"), { threeDS: "pass" })
  expect(out.params.status).toBe("approved")
  expect(verifyCallback(out.params, M.controlKey)).toBe(true)
  expect(verifyCallback({ ...out.params, status: "declined" }, M.controlKey)).toBe(false)
})

it("direct 3-D Secure: redirect-to from the client's status, then the ACS page", async () => {
  const orderid = await sale("cc-4", "SALE", "321")
  const st = await client.request("STATUS", { client_orderid: "cc-4", orderid })
  expect(st.status).toBe("processing")
  expect(st.html).toContain("<form")
  const out = await completeChallenge(String(st["redirect-to"]), "pass")
  expect(verifyCallback(out.params, M.controlKey)).toBe(true)
  expect((await client.request("STATUS", { client_orderid: "cc-4", orderid })).status).toBe("approved")
})

it("3DS uploads through the client (client-order-id spelling)", async () => {
  const orderid = await sale("cc-5", "SALE", "321")
  await client.request("TDS_UPLOAD_METHOD_URL_RESULT", { "client-order-id": "cc-5", orderid, threeDSCompInd: "Y" })
  await client.request("TDS_UPLOAD_CRES_RESULT", { "client-order-id": "cc-5", orderid, cRes: "ok" })
  expect((await sb.control.waitForOutcome(orderid)).status).toBe("approved")
})

it("server callbacks verify with the client's verifyCallback", async () => {
  const m = await startMerchant()
  try {
    await sale("cc-6", "SALE", "123", { server_callback_url: `${m.url}/cb?x=1` })
    const [got] = await m.waitFor(1)
    expect(verifyCallback(got.query, M.controlKey)).toBe(true)
  } finally {
    await m.close()
  }
})

it("OAuth: HMAC-SHA1 payout, RSA-SHA256 payout-check/pay and card ref; a wrong key is an auth error", async () => {
  const po = await client.request("PAYOUT", { client_orderid: "cc-7", amount: "5.00", currency: "EUR", wallet_id: "W-1" })
  expect(po.type).toBe("async-response")
  const check = await client.request("PAYOUT_V4_CHECK", {
    client_orderid: "cc-8", amount: "5.00", currency: "EUR", account_number: "LV00BANK0000435195001", bank_name: "Bank", bank_branch: "Riga",
  })
  const orderid = String(check["paynet-order-id"])
  await sb.control.waitForOutcome(orderid)
  await client.request("PAYOUT_V4_PAY", { client_orderid: "cc-8", orderid })
  expect((await sb.control.waitForOutcome(orderid)).captured).toBe("5.00")

  const saleId = await sale("cc-9")
  const ref = await client.request("CARDREF_V4", { client_orderid: "cc-9", orderid: saleId })
  const info = await client.request("CARDINFO", { cardrefid: ref["card-ref-id"] })
  expect(info).toMatchObject({ "last-four-digits": "1111", "expire-year": "2099" })
  const rb = await client.request("REBILL", {
    client_orderid: "cc-10", cardrefid: ref["card-ref-id"], amount: "2.00", currency: "EUR", order_desc: "Rebill", ipaddress: "127.0.0.1",
  })
  expect((await sb.control.waitForOutcome(String(rb["paynet-order-id"]))).status).toBe("approved")

  const wrong = make({ controlKey: "NOT-THE-KEY" })
  await expect(wrong.request("PAYOUT", { client_orderid: "cc-11", amount: "5.00", currency: "EUR", wallet_id: "W" })).rejects.toBeInstanceOf(
    GatewayAuthError,
  )
})

it("a lost response to a money-moving request is indeterminate; exactly one transaction exists", async () => {
  sb.control.addFault({ kind: "response-lost", operation: "SALE", times: 1 })
  const err = await client
    .request("SALE", { client_orderid: "cc-12", amount: "10.42", currency: "EUR", ...payer, ...cardFields("123") })
    .catch((e: unknown) => e)
  expect(err).toBeInstanceOf(GatewayTransportError)
  expect((err as GatewayTransportError).indeterminate).toBe(true)
  expect(sb.control.transactions()).toHaveLength(1)
  const st = await client.request("STATUS", { client_orderid: "cc-12" })
  expect(st["paynet-order-id"]).toBe(sb.control.transactions()[0].orderid)
})

it("a 500 on STATUS is retried by the client; requests reuse one keep-alive connection", async () => {
  const orderid = await sale("cc-13")
  sb.control.reset() // counters only matter from here; the order is gone, so create a new one
  const id2 = await sale("cc-14")
  sb.control.addFault({ kind: "http-500", operation: "STATUS", times: 1 })
  const st = await client.request("STATUS", { client_orderid: "cc-14", orderid: id2 })
  expect(st.status).toBe("approved")
  expect(sb.control.requests()).toEqual({ SALE: 1, STATUS: 2 })
  expect(sb.control.connections()).toBeLessThanOrEqual(1)
  expect(orderid).not.toBe(id2)
})

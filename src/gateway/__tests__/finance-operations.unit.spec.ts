/**
 * Conformance of the finance operations (issue 51) as the plugin's builders send them, over real HTTP against a
 * node:http stand-in: pan-eligibility/send (HMAC-SHA1), transfer (v4, RSA-SHA256), get-balance by endpoint and by
 * manager (HMAC-SHA1). For each: the path, the headers, the body field by field (wire spelling, nothing more), the
 * signature recomputed here from a base string rebuilt here (never with the client's own signing code) and a tampered
 * body that no longer verifies, the reply read, and the refusals made before anything is sent.
 */
import { createHmac, generateKeyPairSync, verify } from "node:crypto"
import { PaynetEasyClient } from "../client"
import { GatewayInputError, GatewayValidationError } from "../errors"
import { OPERATIONS } from "../operations"
import { balancesOf } from "../replies"
import { balanceByEndpointFields, balanceByManagerFields, panEligibilityFields, transferFields } from "../requests"
import { json, startTestServer, type SeenRequest, type TestServer } from "./http-server"

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
const PEM = privateKey.export({ type: "pkcs1", format: "pem" }).toString()
const KEY = "B17F59B4-A7DC-41B4-8FF9-37D986B43D20"
const MANAGER_KEY = "5C0A7E11-9D3B-4E62-A1F8-2B7C4D9E6F03"
const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())

let server: TestServer
let client: PaynetEasyClient
let manager: PaynetEasyClient

beforeEach(async () => {
  server = await startTestServer()
  const common = { baseUrl: `${server.origin}/paynet/`, timeouts: { connectMs: 2_000, headersMs: 2_000, bodyMs: 2_000 } }
  client = new PaynetEasyClient({ ...common, endpointId: "1111", login: "merchant-login", controlKey: KEY, privateKeyPem: PEM })
  // get-balance by manager: the manager's own login and key, no endpoint
  manager = new PaynetEasyClient({ ...common, login: "BalanceTestManager", controlKey: MANAGER_KEY })
})
afterEach(async () => {
  await client.close().catch(() => undefined)
  await manager.close().catch(() => undefined)
  await server.close()
})

/** The oauth_* parameters of the Authorization header, decoded. */
function oauthOf(req: SeenRequest): Record<string, string> {
  expect(req.headers.authorization).toMatch(/^OAuth /)
  return Object.fromEntries([...(req.headers.authorization ?? "").matchAll(/([a-z_]+)="([^"]*)"/g)].map((m) => [m[1], decodeURIComponent(m[2])]))
}

/** The OAuth 1.0a base string, rebuilt from what arrived (RFC 5849 §3.4.1). */
function baseString(req: SeenRequest, url: string): string {
  const { oauth_signature: _sig, ...signed } = oauthOf(req)
  const params = [...Object.entries(req.body), ...Object.entries(signed)].map(([k, v]) => `${enc(k)}=${enc(v)}`).sort().join("&")
  return `POST&${enc(url)}&${enc(params)}`
}

const hmacOk = (base: string, key: string, sig: string) => createHmac("sha1", `${key}&`).update(base).digest("base64") === sig

describe("pan-eligibility/send", () => {
  it("is a v2 row signed HMAC-SHA1, keyed by client-order-id, the card by reference or by number", () => {
    expect(OPERATIONS.PAN_ELIGIBILITY_SEND).toMatchObject({
      path: "/api/v2/pan-eligibility/send", version: "v2", auth: { kind: "oauth", method: "HMAC-SHA1" },
      required: ["client-order-id"], oneOf: [["sending-card-ref-id", "sending-card-number"]], clientOrderIdField: "client-order-id", movesMoney: true,
    })
  })

  it("sends a saved card's reference, exactly these fields, with an HMAC-SHA1 signature recomputed here", async () => {
    server.handle((_req, res) => json(res, 200, { type: "async-response", "serial-number": "sn-1", "merchant-order-id": "pnepo_1-e", "paynet-order-id": 1000001 }))
    const reply = await client.request("PAN_ELIGIBILITY_SEND", panEligibilityFields({
      clientOrderId: "pnepo_1-e", card: { type: "card_ref", cardRefId: "5000001" }, callbackUrl: "https://shop.example/cb",
    }))
    expect(reply).toMatchObject({ type: "async-response", "paynet-order-id": "1000001", "merchant-order-id": "pnepo_1-e" })
    const req = server.requests[0]
    expect(req.method).toBe("POST")
    expect(req.path).toBe("/paynet/api/v2/pan-eligibility/send/1111")
    expect(req.headers.accept).toBe("application/vnd.pay+json")
    expect(req.headers["content-type"]).toBe("application/x-www-form-urlencoded")
    expect(req.body).toEqual({ "client-order-id": "pnepo_1-e", "sending-card-ref-id": "5000001", server_callback_url: "https://shop.example/cb" })
    const oauth = oauthOf(req)
    expect(oauth).toMatchObject({ oauth_consumer_key: "merchant-login", oauth_signature_method: "HMAC-SHA1", oauth_version: "1.0" })
    const base = baseString(req, `${server.origin}/paynet/api/v2/pan-eligibility/send/1111`)
    expect(hmacOk(base, KEY, oauth.oauth_signature)).toBe(true)
    expect(hmacOk(base.replace("5000001", "5000002"), KEY, oauth.oauth_signature)).toBe(false)
    expect(hmacOk(base, "another-key", oauth.oauth_signature)).toBe(false)
  })

  it("sends a typed card as sending-card-number with its printed name and expiry, never a CVV", async () => {
    server.handle((_req, res) => json(res, 200, { type: "async-response", "paynet-order-id": "1000002" }))
    await client.request("PAN_ELIGIBILITY_SEND", panEligibilityFields({
      clientOrderId: "pnepo_2-e", card: { type: "card", cardNumber: "4000000000000002", holder: "ANA LOPEZ", expMonth: "12", expYear: "2030" },
    }))
    const req = server.requests[0]
    expect(req.body).toEqual({
      "client-order-id": "pnepo_2-e", "sending-card-number": "4000000000000002", "card-printed-name": "ANA LOPEZ",
      expire_month: "12", expire_year: "2030",
    })
    const oauth = oauthOf(req)
    expect(hmacOk(baseString(req, `${server.origin}/paynet/api/v2/pan-eligibility/send/1111`), KEY, oauth.oauth_signature)).toBe(true)
  })

  it("refuses, before sending, a check without a card or with both", async () => {
    const none = await client.request("PAN_ELIGIBILITY_SEND", { "client-order-id": "x-e" }).catch((e) => e)
    expect(none).toBeInstanceOf(GatewayInputError)
    expect(none.message).toMatch(/exactly one of sending-card-ref-id, sending-card-number/)
    const both = await client.request("PAN_ELIGIBILITY_SEND", { "client-order-id": "x-e", "sending-card-ref-id": "1", "sending-card-number": "4111111111111111" }).catch((e) => e)
    expect(both).toBeInstanceOf(GatewayInputError)
    expect(both.field).toBe("sending-card-number")
    expect(server.requests).toHaveLength(0)
  })
})

describe("transfer (v4)", () => {
  it("is a v4 row signed RSA-SHA256 with one destination", () => {
    expect(OPERATIONS.TRANSFER_V4).toMatchObject({
      path: "/api/v4/transfer", version: "v4", auth: { kind: "oauth", method: "RSA-SHA256" }, clientOrderIdField: "client_orderid", movesMoney: true,
    })
    expect(OPERATIONS.TRANSFER_V4.oneOf[0]).toEqual(expect.arrayContaining(["destination-card-no", "destination-card-ref-id"]))
  })

  it("sends the merchant's transfer to a card reference, exactly these fields, signed so the public key verifies", async () => {
    server.handle((_req, res) => json(res, 200, { type: "async-response", "serial-number": "sn-9", "paynet-order-id": 1000009, "merchant-order-id": "pnert_1" }))
    const reply = await client.request("TRANSFER_V4", transferFields({
      clientOrderId: "pnert_1", amount: "12.5", currency: "eur", description: "Refund of order #1001",
      destination: { type: "card_ref", cardRefId: "5000001" }, callbackUrl: "https://shop.example/cb",
    }))
    expect(reply).toMatchObject({ "paynet-order-id": "1000009", "serial-number": "sn-9" })
    const req = server.requests[0]
    expect(req.path).toBe("/paynet/api/v4/transfer/1111")
    // amount normalized to the currency's exponent, currency upper-cased, nothing else
    expect(req.body).toEqual({
      client_orderid: "pnert_1", amount: "12.50", currency: "EUR", order_desc: "Refund of order #1001",
      "destination-card-ref-id": "5000001", server_callback_url: "https://shop.example/cb",
    })
    expect(req.body.control).toBeUndefined()
    const oauth = oauthOf(req)
    expect(oauth).toMatchObject({ oauth_consumer_key: "merchant-login", oauth_signature_method: "RSA-SHA256" })
    const base = baseString(req, `${server.origin}/paynet/api/v4/transfer/1111`)
    const sig = Buffer.from(oauth.oauth_signature, "base64")
    expect(verify("sha256", Buffer.from(base), publicKey, sig)).toBe(true)
    expect(verify("sha256", Buffer.from(base.replace("12.50", "99.50")), publicKey, sig)).toBe(false)
  })

  it("sends a card number as destination-card-no", async () => {
    server.handle((_req, res) => json(res, 200, { type: "async-response", "paynet-order-id": "1" }))
    await client.request("TRANSFER_V4", transferFields({
      clientOrderId: "pnert_2", amount: "1", currency: "JPY", description: "d", destination: { type: "card", cardNumber: "4444333322221111" }, callbackUrl: "https://s/cb",
    }))
    expect(server.requests[0].body).toMatchObject({ "destination-card-no": "4444333322221111", amount: "1", currency: "JPY" })
    expect(server.requests[0].body["destination-card-ref-id"]).toBeUndefined()
  })

  it("refuses a transfer without a destination before sending", async () => {
    const e = await client.request("TRANSFER_V4", { client_orderid: "t", amount: "1.00", currency: "EUR" }).catch((x) => x)
    expect(e).toBeInstanceOf(GatewayInputError)
    expect(server.requests).toHaveLength(0)
  })
})

describe("get-balance", () => {
  it("by endpoint: /api/v2/get-balance/<endpoint>, balance-provider only, HMAC-SHA1; the documented JSON list is read exactly", async () => {
    expect(OPERATIONS.GET_BALANCE).toMatchObject({ path: "/api/v2/get-balance", auth: { kind: "oauth", method: "HMAC-SHA1" }, movesMoney: false, required: ["balance-provider"] })
    server.handle((_req, res) => json(res, 200, '[\n  {\n    "balance-amount":29.99\n  }\n]'))
    const reply = await client.request("GET_BALANCE", balanceByEndpointFields({ provider: "Test" }))
    expect(balancesOf(reply)).toEqual([expect.objectContaining({ amount: "29.99" })])
    const req = server.requests[0]
    expect(req.path).toBe("/paynet/api/v2/get-balance/1111")
    expect(req.body).toEqual({ "balance-provider": "Test" })
    const oauth = oauthOf(req)
    const base = baseString(req, `${server.origin}/paynet/api/v2/get-balance/1111`)
    expect(hmacOk(base, KEY, oauth.oauth_signature)).toBe(true)
    expect(hmacOk(base.replace("Test", "Other"), KEY, oauth.oauth_signature)).toBe(false)
  })

  it("by endpoint, legacy form reply: balance-amount with the trailing 0x0A", async () => {
    server.handle((_req, res) => res.writeHead(200, { "content-type": "text/html;charset=utf-8" }).end("balance-amount=1500.00\n"))
    const reply = await client.request("GET_BALANCE", balanceByEndpointFields({ provider: "Test" }))
    expect(balancesOf(reply)).toEqual([expect.objectContaining({ amount: "1500.00" })])
  })

  it("by manager: the URL ends with the manager login, the consumer key is that login, the manager's key signs", async () => {
    expect(OPERATIONS.GET_BALANCE_MANAGER).toMatchObject({ path: "/api/v2/get-balance/manager", target: "login", movesMoney: false })
    server.handle((_req, res) => json(res, 200, JSON.stringify([
      {
        name: "saa", amount: 1200.5, "online-balance-live-amount": 900.25, "total-short-term-hold-amount": 200.25,
        "total-rolling-reserve-amount": 100.0, currency: "EUR", merchantLogin: "merchant-login", "amount-buffer-hold": 35.1,
      },
    ]).replace("100,", "100.00,")))
    const reply = await manager.request("GET_BALANCE_MANAGER", balanceByManagerFields({ balanceName: "saa" }))
    expect(balancesOf(reply)).toEqual([{
      name: "saa", amount: "1200.5", liveAmount: "900.25", shortTermHolds: "200.25", rollingReserve: "100.00",
      bufferHold: "35.1", currency: "EUR", merchantLogin: "merchant-login",
    }])
    const req = server.requests[0]
    expect(req.path).toBe("/paynet/api/v2/get-balance/manager/BalanceTestManager")
    expect(req.body).toEqual({ "balance-name": "saa" })
    const oauth = oauthOf(req)
    expect(oauth.oauth_consumer_key).toBe("BalanceTestManager")
    const base = baseString(req, `${server.origin}/paynet/api/v2/get-balance/manager/BalanceTestManager`)
    expect(hmacOk(base, MANAGER_KEY, oauth.oauth_signature)).toBe(true)
    expect(hmacOk(base, KEY, oauth.oauth_signature)).toBe(false)
  })

  it("by manager without a balance name: an empty body, every oauth_* in the header, still signed", async () => {
    server.handle((_req, res) => json(res, 200, []))
    const reply = await manager.request("GET_BALANCE_MANAGER", balanceByManagerFields())
    expect(balancesOf(reply)).toEqual([])
    const req = server.requests[0]
    expect(req.rawBody).toBe("")
    expect(hmacOk(baseString(req, `${server.origin}/paynet/api/v2/get-balance/manager/BalanceTestManager`), MANAGER_KEY, oauthOf(req).oauth_signature)).toBe(true)
  })

  it("an account without balance access: the gateway's refusal, with its words", async () => {
    server.handle((_req, res) => json(res, 400, { type: "validation-error", "error-message": "Get balance is not enabled for this account", "error-code": "10" }))
    const e = await client.request("GET_BALANCE", balanceByEndpointFields({ provider: "Test" })).catch((x) => x)
    expect(e).toBeInstanceOf(GatewayValidationError)
    expect(e.gatewayMessage).toBe("Get balance is not enabled for this account")
  })
})

/**
 * PaynetEasyClient over real HTTP against a node:http stand-in: headers, body encoding, control, OAuth headers,
 * keep-alive, timeouts and the re-send rule (money-moving: once, indeterminate; read-only: retried), error
 * mapping, and that no error message carries the control key, the card number or the CVV.
 */
import { createHash, createHmac, generateKeyPairSync, verify } from "node:crypto"
import { createServer } from "node:net"
import type { AddressInfo } from "node:net"
import { PaynetEasyClient } from "../client"
import type { GatewayConfig } from "../config"
import {
  GatewayAuthError,
  GatewayConfigError,
  GatewayError,
  GatewayInputError,
  GatewayServerError,
  GatewayTransportError,
  GatewayValidationError,
} from "../errors"
import { OPERATIONS } from "../operations"
import { MAX_REPLY_BYTES } from "../transport"
import { json, startTestServer, type TestServer } from "./http-server"

const KEY = "B17F59B4-A7DC-41B4-8FF9-37D986B43D20"
const PAN = "4444555566661111"
const sha1 = (s: string) => createHash("sha1").update(s).digest("hex")

const SALE_FIELDS = {
  client_orderid: " payses_01 ",
  order_desc: "Order #1 (test)",
  amount: "10.4",
  currency: "eur",
  address1: "1 Main St",
  city: "Riga",
  zip_code: "LV-1010",
  country: "LV",
  phone: "+371 2000 0000",
  email: "john.smith@gmail.com",
  ipaddress: "127.0.0.1",
  card_printed_name: "JOHN DOE",
  credit_card_number: PAN,
  expire_month: "12",
  expire_year: "2099",
  cvv2: "123",
  redirect_url: "http://shop.example/return?a=1&b=2",
  custom_passthrough: "  kept as is + & = ",
}

let server: TestServer
const clients: PaynetEasyClient[] = []

function client(overrides: Partial<GatewayConfig> = {}): PaynetEasyClient {
  const c = new PaynetEasyClient({
    baseUrl: `${server.origin}/paynet/`,
    endpointId: "1111",
    login: "merchant-login",
    controlKey: KEY,
    timeouts: { connectMs: 2_000, headersMs: 2_000, bodyMs: 2_000 },
    ...overrides,
  })
  clients.push(c)
  return c
}

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError)
    return e as GatewayError
  }
  throw new Error("expected the request to fail")
}

function assertClean(error: Error): void {
  const text = `${error.message} ${(error as GatewayError).gatewayMessage ?? ""} ${JSON.stringify(error)}`
  expect(text).not.toContain(KEY)
  expect(text).not.toContain(PAN)
  expect(text).not.toMatch(/cvv2=123\b/)
}

beforeEach(async () => {
  server = await startTestServer()
})
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)))
  await server.close()
})

describe("sending", () => {
  it("POSTs a form-encoded SALE with the right headers, path, trimmed fields and control", async () => {
    server.handle((_req, res) =>
      json(res, 200, '{"type":"async-response","serial-number":"s-1","merchant-order-id":"payses_01","paynet-order-id":12345678901234567890,"status":"processing"}'),
    )
    const reply = await client().request("SALE", SALE_FIELDS)
    expect(reply["paynet-order-id"]).toBe("12345678901234567890")
    expect(reply.type).toBe("async-response")

    expect(server.requests).toHaveLength(1)
    const req = server.requests[0]
    expect(req.method).toBe("POST")
    expect(req.path).toBe("/paynet/api/v2/sale/1111")
    expect(req.headers.accept).toBe("application/vnd.pay+json")
    expect(req.headers["content-type"]).toBe("application/x-www-form-urlencoded")
    expect(req.headers.authorization).toBeUndefined()
    // Space → +, & and = escaped in values.
    expect(req.rawBody).toContain("order_desc=Order+%231+%28test%29")
    expect(req.rawBody).toContain("redirect_url=http%3A%2F%2Fshop.example%2Freturn%3Fa%3D1%26b%3D2")
    expect(req.body.client_orderid).toBe("payses_01")
    expect(req.body.amount).toBe("10.40")
    expect(req.body.currency).toBe("EUR")
    expect(req.body.custom_passthrough).toBe("kept as is + & =")
    expect(req.body.login).toBeUndefined()
    expect(req.body.control).toBe(sha1("1111payses_011040john.smith@gmail.com" + KEY))
  })

  it("adds login, uses the group path and the group id in the control slot", async () => {
    server.handle((_req, res) => json(res, 200, { type: "status-response", status: "approved", "paynet-order-id": "77" }))
    const reply = await client({ endpointId: undefined, endpointGroupId: "2222" }).request("STATUS", {
      client_orderid: "payses_01",
      orderid: 77,
    })
    expect(reply.status).toBe("approved")
    const req = server.requests[0]
    expect(req.path).toBe("/paynet/api/v2/status/group/2222")
    expect(req.body.login).toBe("merchant-login")
    expect(req.body.orderid).toBe("77")
    expect(req.body.control).toBe(sha1("merchant-loginpayses_0177" + KEY))

    await client({ endpointId: undefined, endpointGroupId: "2222" }).request("SALEFORM", {
      ...SALE_FIELDS,
      credit_card_number: undefined,
      cvv2: undefined,
    }).catch(() => undefined)
    expect(server.requests[1].path).toBe("/paynet/api/v2/sale-form/group/2222")
    expect(server.requests[1].body.control).toBe(sha1("2222payses_011040john.smith@gmail.com" + KEY))
  })

  it("signs CAPTURE with amount and currency only when sent", async () => {
    server.handle((_req, res) => json(res, 200, { type: "async-response", "paynet-order-id": 5 }))
    const c = client()
    await c.request("CAPTURE", { client_orderid: "payses_01", orderid: "5" })
    await c.request("CAPTURE", { client_orderid: "payses_01", orderid: "5", amount: "3.5", currency: "EUR" })
    expect(server.requests[0].body.control).toBe(sha1("merchant-loginpayses_015" + KEY))
    expect(server.requests[0].body.amount).toBeUndefined()
    expect(server.requests[1].body.control).toBe(sha1("merchant-loginpayses_015350EUR" + KEY))
    expect(server.requests[1].body.amount).toBe("3.50")
  })

  it("reads the legacy key=value\\n& reply", async () => {
    server.handle((_req, res) =>
      res
        .writeHead(200, { "content-type": "text/html;charset=utf-8" })
        .end("type=async-response\n&serial-number=s-2\n&merchant-order-id=payses_01\n&paynet-order-id=6768788\n&end-point-id=22903\n"),
    )
    const reply = await client().request("VOID", { client_orderid: "payses_01", orderid: "6768788" })
    expect(reply["paynet-order-id"]).toBe("6768788")
    expect(reply["end-point-id"]).toBe("22903")
  })

  it("keeps one keep-alive connection across requests", async () => {
    server.handle((_req, res) => json(res, 200, { type: "status-response", status: "processing" }))
    const c = client()
    for (let i = 0; i < 4; i++) await c.request("STATUS", { client_orderid: `o-${i}` })
    expect(server.requests).toHaveLength(4)
    expect(server.connections()).toBe(1)
  })

  it("keeps one connection when each request is sent the moment the previous reply is answered, with no await between", async () => {
    server.handle((_req, res) => json(res, 200, { type: "status-response", status: "processing" }))
    const c = client()
    let chain: Promise<unknown> = Promise.resolve()
    for (let i = 0; i < 6; i++) chain = chain.then(() => c.request("STATUS", { client_orderid: `o-${i}` }))
    await chain
    expect(server.requests).toHaveLength(6)
    expect(server.connections()).toBe(1)
  })

  it("sends requests made at once side by side, each on its own connection (none waits for another's reply)", async () => {
    // The server answers nothing until all three requests are in: a client that queued them on one connection would
    // never get a reply (the test would time out).
    const held: Array<() => void> = []
    server.handle((_req, res) => {
      held.push(() => json(res, 200, { type: "status-response", status: "processing" }))
      if (held.length === 3) for (const answer of held.splice(0)) answer()
    })
    const c = client()
    const replies = await Promise.all([0, 1, 2].map((i) => c.request("STATUS", { client_orderid: `p-${i}` })))
    expect(replies.map((r) => r.status)).toEqual(["processing", "processing", "processing"])
    expect(server.connections()).toBe(3)
  })

  it("signs HMAC-SHA1 operations with an OAuth header only, verifiable by the receiver", async () => {
    server.handle((_req, res) => json(res, 200, { type: "async-response", "paynet-order-id": 9 }))
    await client().request("PAYOUT", { client_orderid: "po-1", amount: "1", currency: "EUR", order_desc: "pay out (x)!" })
    const req = server.requests[0]
    expect(Object.keys(req.body).filter((k) => k.startsWith("oauth_") || k === "control")).toEqual([])
    const header = req.headers.authorization ?? ""
    expect(header.startsWith("OAuth ")).toBe(true)
    const oauth = Object.fromEntries(
      [...header.slice(6).matchAll(/([a-z_]+)="([^"]*)"/g)].map((m) => [m[1], decodeURIComponent(m[2])]),
    )
    expect(oauth.oauth_consumer_key).toBe("merchant-login")
    expect(oauth.oauth_signature_method).toBe("HMAC-SHA1")
    expect(oauth.oauth_version).toBe("1.0")
    expect(oauth.oauth_nonce).toMatch(/^[0-9a-f]{32}$/)
    expect(Math.abs(Number(oauth.oauth_timestamp) - Date.now() / 1000)).toBeLessThan(600)
    // Independent verification, as a gateway would do it.
    const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())
    const { oauth_signature, ...signedOauth } = oauth
    const params = [...Object.entries(req.body), ...Object.entries(signedOauth)]
      .map(([k, v]) => `${enc(k)}=${enc(v)}`)
      .sort()
      .join("&")
    const base = `POST&${enc(`${server.origin}/paynet/api/v2/payout/1111`)}&${enc(params)}`
    expect(oauth_signature).toBe(createHmac("sha1", `${KEY}&`).update(base).digest("base64"))
  })

  it("signs RSA-SHA256 operations with the configured key (and honours signatureMethods)", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
    const pem = privateKey.export({ type: "pkcs1", format: "pem" }).toString()
    server.handle((_req, res) => json(res, 200, { type: "async-form-response", "redirect-url": "https://pay.example/f/1" }))
    await client({ privateKeyPem: pem, signatureMethods: { PAYOUTFORM: "RSA-SHA256" } }).request("PAYOUTFORM", {
      client_orderid: "pf-1",
      amount: "2.00",
      currency: "USD",
      redirect_url: "https://shop.example/r",
    })
    const req = server.requests[0]
    const oauth = Object.fromEntries(
      [...(req.headers.authorization ?? "").matchAll(/([a-z_]+)="([^"]*)"/g)].map((m) => [m[1], decodeURIComponent(m[2])]),
    )
    expect(oauth.oauth_signature_method).toBe("RSA-SHA256")
    const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())
    const { oauth_signature, ...signedOauth } = oauth
    const params = [...Object.entries(req.body), ...Object.entries(signedOauth)].map(([k, v]) => `${enc(k)}=${enc(v)}`).sort().join("&")
    const base = `POST&${enc(`${server.origin}/paynet/api/v2/payout-form/1111`)}&${enc(params)}`
    expect(verify("sha256", Buffer.from(base), publicKey, Buffer.from(oauth_signature, "base64"))).toBe(true)
  })
})

describe("refusing before sending", () => {
  it("names a missing required field", async () => {
    const { email: _, ...noEmail } = SALE_FIELDS
    const e = await failure(client().request("SALE", noEmail))
    expect(e).toBeInstanceOf(GatewayInputError)
    expect((e as GatewayInputError).field).toBe("email")
    expect(server.requests).toHaveLength(0)
  })

  it("refuses amounts finer than the currency allows, and malformed amounts", async () => {
    for (const [amount, currency] of [["10.5", "JPY"], ["1.2345", "KWD"], ["-1", "EUR"], ["1e2", "EUR"], ["1,5", "EUR"], ["", "EUR"]]) {
      const e = await failure(client().request("SALE", { ...SALE_FIELDS, amount, currency }))
      expect(e).toBeInstanceOf(GatewayInputError)
      expect((e as GatewayInputError).field).toBe("amount")
      assertClean(e)
    }
    const e = await failure(client().request("CAPTURE", { client_orderid: "a", orderid: "1", amount: "1.00" }))
    expect((e as GatewayInputError).field).toBe("currency")
    expect(server.requests).toHaveLength(0)
  })

  it("needs an endpoint and, for RSA-SHA256, a private key", async () => {
    const noEndpoint = await failure(client({ endpointId: undefined }).request("STATUS", { client_orderid: "a" }))
    expect(noEndpoint).toBeInstanceOf(GatewayConfigError)
    const noKey = await failure(client().request("PAYOUT_V4_CHECK", { client_orderid: "a", amount: "1", currency: "EUR" }))
    expect(noKey).toBeInstanceOf(GatewayConfigError)
    expect(noKey.message).toMatch(/privateKeyPem/)
    expect(server.requests).toHaveLength(0)
  })

  it("refuses a bad configuration in the constructor", () => {
    const base = { baseUrl: "http://127.0.0.1:1/paynet", endpointId: "1", login: "l", controlKey: KEY }
    const small = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
    for (const bad of [
      { ...base, baseUrl: "not a url" },
      { ...base, baseUrl: "ftp://x/paynet" },
      { ...base, endpointGroupId: "2" },
      { ...base, login: "" },
      { ...base, controlKey: "" },
      { ...base, privateKeyPem: small },
      { ...base, signatureMethods: { SALE: "HMAC-SHA1" as const } },
      { ...base, readRetries: -1 },
      { ...base, timeouts: { connectMs: 0 } },
    ]) {
      let error: unknown
      try {
        new PaynetEasyClient(bad as GatewayConfig)
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(GatewayConfigError)
      expect(String((error as Error).message)).not.toContain(KEY)
    }
  })
})

describe("failures", () => {
  it("maps 400 / 403 / 500 with the gateway's code and message, never leaking secrets", async () => {
    // A gateway that echoes the request back in its error message.
    const cases: Array<[number, string, new (...a: never[]) => GatewayError]> = [
      [400, "validation-error", GatewayValidationError],
      [403, "validation-error", GatewayAuthError],
      [500, "error", GatewayServerError],
    ]
    for (const [status, type, cls] of cases) {
      server.handle((req, res) =>
        json(res, status, { type, "error-code": 7, "error-message": `Rejected card ${PAN}: ${req.rawBody} control key ${KEY}` }),
      )
      const e = await failure(client().request("SALE", SALE_FIELDS))
      expect(e).toBeInstanceOf(cls)
      expect(e.httpStatus).toBe(status)
      expect(e.code).toBe("7")
      expect(e.gatewayMessage).toContain("Rejected")
      expect(e.gatewayMessage).toContain("Rejected card 444455******1111:")
      expect(e.gatewayMessage).toContain("credit_card_number=[redacted]&")
      expect(e.message).toContain(`HTTP ${status}`)
      assertClean(e)
    }
    // Money-moving: one request per call, no retry on 500.
    expect(server.requests).toHaveLength(3)
  })

  it("does not re-send a money-moving request after a timeout: indeterminate transport error", async () => {
    server.handle(() => undefined) // never answers
    const e = await failure(client({ timeouts: { headersMs: 300 } }).request("SALE", SALE_FIELDS))
    expect(e).toBeInstanceOf(GatewayTransportError)
    expect((e as GatewayTransportError).indeterminate).toBe(true)
    expect(e.operation).toBe("SALE")
    assertClean(e)
    expect(server.requests).toHaveLength(1)
  })

  it("treats a reply body that stalls as indeterminate", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/vnd.pay+json", "content-length": "200" })
      res.write('{"type":"async-response",')
    })
    const e = await failure(client({ timeouts: { bodyMs: 300 } }).request("REBILL", {
      client_orderid: "r1", cardrefid: "555", amount: "1.00", currency: "EUR", order_desc: "d", ipaddress: "127.0.0.1",
    }))
    expect(e).toBeInstanceOf(GatewayTransportError)
    expect((e as GatewayTransportError).indeterminate).toBe(true)
    expect(e.message).toMatch(/reply body/)
    expect(server.requests).toHaveLength(1)
  })

  it("stops reading a reply past 1 MiB: indeterminate, and the connection is not reused", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/vnd.pay+json" })
      res.end(`{"type":"async-response","pad":"${"x".repeat(MAX_REPLY_BYTES)}"}`)
    })
    const c = client()
    const e = await failure(c.request("CAPTURE", { client_orderid: "a", orderid: "1" }))
    expect(e).toBeInstanceOf(GatewayTransportError)
    expect((e as GatewayTransportError).indeterminate).toBe(true)
    expect(e.message).toMatch(/reply larger than 1048576 bytes/)
    expect(server.requests).toHaveLength(1)
    // The aborted connection is gone; a reply just under the limit on a new one is read whole.
    server.handle((_req, res) => json(res, 200, { type: "status-response", status: "approved", pad: "y".repeat(MAX_REPLY_BYTES - 100) }))
    const reply = await c.request("STATUS", { client_orderid: "a" })
    expect(String(reply.pad)).toHaveLength(MAX_REPLY_BYTES - 100)
    expect(server.connections()).toBeGreaterThanOrEqual(2)
  })

  it("reads a reply that starts with a UTF-8 byte order mark", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/vnd.pay+json" })
      res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"type":"status-response","status":"approved","name":"Jürgen"}')]))
    })
    const reply = await client().request("STATUS", { client_orderid: "a" })
    expect(reply.status).toBe("approved")
    expect(reply.name).toBe("Jürgen")
  })

  it("treats a connection dropped after the request as indeterminate", async () => {
    server.handle((_req, res) => res.socket?.destroy())
    const e = await failure(client().request("CAPTURE", { client_orderid: "a", orderid: "1" }))
    expect(e).toBeInstanceOf(GatewayTransportError)
    expect((e as GatewayTransportError).indeterminate).toBe(true)
    expect(server.requests).toHaveLength(1)
  })

  it("retries a read-only request after timeouts, readRetries times", async () => {
    server.handle(() => undefined)
    const e = await failure(client({ timeouts: { headersMs: 200 }, readRetries: 2 }).request("STATUS", { client_orderid: "a" }))
    expect(e).toBeInstanceOf(GatewayTransportError)
    expect(server.requests).toHaveLength(3)
    // Each attempt is signed afresh but carries the same control.
    expect(new Set(server.requests.map((r) => r.body.control)).size).toBe(1)
  })

  it("retries a read-only request on 5xx and returns the eventual answer", async () => {
    let n = 0
    server.handle((_req, res) => {
      n++
      if (n < 3) json(res, 503, "<html>busy</html>")
      else json(res, 200, { type: "status-response", status: "approved" })
    })
    const reply = await client().request("STATUS", { client_orderid: "a" })
    expect(reply.status).toBe("approved")
    expect(server.requests).toHaveLength(3)
  })

  it.each([
    ["CARDREF", { client_orderid: "a", orderid: "1" }],
    ["PAN_ELIGIBILITY_SEND", { "client-order-id": "a", "sending-card-ref-id": "7" }],
  ] as const)("does not retry %s (it creates state at the gateway) on 5xx", async (op, fields) => {
    server.handle((_req, res) => json(res, 503, "<html>busy</html>"))
    const e = await failure(client({ readRetries: 2 }).request(op, fields))
    expect(e).toBeInstanceOf(GatewayServerError)
    expect(server.requests).toHaveLength(1)
  })

  it("the table: only pure reads and 3DS answers are re-sendable; card references and payout checks are not", () => {
    const resendable = Object.values(OPERATIONS).filter((o) => !o.movesMoney).map((o) => o.name).sort()
    expect(resendable).toEqual(["CARDINFO", "GET_BALANCE", "GET_BALANCE_MANAGER", "STATUS", "TDS_UPLOAD_CRES_RESULT", "TDS_UPLOAD_METHOD_URL_RESULT", "TDS_UPLOAD_PARES_RESULT"])
  })

  it("does not retry a read-only request on a validation error", async () => {
    server.handle((_req, res) => json(res, 400, { type: "validation-error", "error-message": "no such order" }))
    const e = await failure(client().request("STATUS", { client_orderid: "a" }))
    expect(e).toBeInstanceOf(GatewayValidationError)
    expect(server.requests).toHaveLength(1)
  })

  it("reports a refused connection as not sent (indeterminate false)", async () => {
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve))
    const { port } = probe.address() as AddressInfo
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    const c = new PaynetEasyClient({ baseUrl: `http://127.0.0.1:${port}/paynet`, endpointId: "1", login: "l", controlKey: KEY })
    clients.push(c)
    const e = await failure(c.request("SALE", SALE_FIELDS))
    expect(e).toBeInstanceOf(GatewayTransportError)
    expect((e as GatewayTransportError).indeterminate).toBe(false)
    assertClean(e)
  })
})

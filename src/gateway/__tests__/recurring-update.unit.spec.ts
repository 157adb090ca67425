/**
 * Conformance of update-recurring-payment (UPDATE_RP_V4) as the plugin sends it to stop a schedule, over real HTTP
 * against a node:http stand-in: the path, the headers, the body field by field (exactly the three fields, wire
 * spelling, no login), the OAuth RSA-SHA256 signature verified with the public key from a base string rebuilt here
 * (not with the client's signing code), the reply read, an error reply refused, and the builder's date format.
 */
import { generateKeyPairSync, verify } from "node:crypto"
import { PaynetEasyClient } from "../client"
import { GatewayInputError, GatewayValidationError } from "../errors"
import { OPERATIONS } from "../operations"
import { finishDateField, stopRecurringPaymentFields } from "../recurring-update"
import { json, startTestServer, type TestServer } from "./http-server"

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
const PEM = privateKey.export({ type: "pkcs1", format: "pem" }).toString()
const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())

let server: TestServer
let client: PaynetEasyClient

beforeEach(async () => {
  server = await startTestServer()
  client = new PaynetEasyClient({
    baseUrl: `${server.origin}/paynet/`, endpointId: "1111", login: "merchant-login", controlKey: "K", privateKeyPem: PEM,
    timeouts: { connectMs: 2_000, headersMs: 2_000, bodyMs: 2_000 },
  })
})
afterEach(async () => {
  await client.close().catch(() => undefined)
  await server.close()
})

const STOP = { clientOrderId: "pnerp_01ABC-stop", recurringPaymentId: "7700123", finishDate: new Date("2026-11-25T23:59:30Z") }

it("is a v4 row signed RSA-SHA256, keyed by client-orderid, needing recurring-payment-id", () => {
  expect(OPERATIONS.UPDATE_RP_V4).toMatchObject({
    path: "/api/v4/update-recurring-payment", version: "v4", auth: { kind: "oauth", method: "RSA-SHA256" },
    required: ["client-orderid", "recurring-payment-id"], clientOrderIdField: "client-orderid", movesMoney: true,
  })
  expect(OPERATIONS.UPDATE_RP_V4.optional).toContain("finish-date")
})

it("sends exactly the stop fields to /api/v4/update-recurring-payment/<endpoint>, with a signature the public key verifies", async () => {
  server.handle((_req, res) =>
    json(res, 200, { type: "update-recurring-payment-response", status: "approved", "recurring-payment-id": 7700123, "serial-number": "sn-1" }))
  const reply = await client.request("UPDATE_RP_V4", stopRecurringPaymentFields(STOP))
  expect(reply).toMatchObject({ type: "update-recurring-payment-response", status: "approved", "recurring-payment-id": "7700123", "serial-number": "sn-1" })

  expect(server.requests).toHaveLength(1)
  const req = server.requests[0]
  expect(req.method).toBe("POST")
  expect(req.path).toBe("/paynet/api/v4/update-recurring-payment/1111")
  expect(req.headers["content-type"]).toBe("application/x-www-form-urlencoded")
  expect(req.body).toEqual({ "client-orderid": "pnerp_01ABC-stop", "recurring-payment-id": "7700123", "finish-date": "2026-11-25" })
  expect(req.body.control).toBeUndefined()

  const oauth = Object.fromEntries(
    [...(req.headers.authorization ?? "").matchAll(/([a-z_]+)="([^"]*)"/g)].map((m) => [m[1], decodeURIComponent(m[2])]))
  expect(req.headers.authorization).toMatch(/^OAuth /)
  expect(oauth).toMatchObject({ oauth_consumer_key: "merchant-login", oauth_signature_method: "RSA-SHA256", oauth_version: "1.0" })
  const { oauth_signature, ...signed } = oauth
  const params = [...Object.entries(req.body), ...Object.entries(signed)].map(([k, v]) => `${enc(k)}=${enc(v)}`).sort().join("&")
  const base = `POST&${enc(`${server.origin}/paynet/api/v4/update-recurring-payment/1111`)}&${enc(params)}`
  expect(verify("sha256", Buffer.from(base), publicKey, Buffer.from(oauth_signature, "base64"))).toBe(true)
  // and a tampered body does not verify: the signature covers the fields
  const forged = base.replace("2026-11-25", "2099-01-01")
  expect(verify("sha256", Buffer.from(forged), publicKey, Buffer.from(oauth_signature, "base64"))).toBe(false)
})

it("an error reply is a refusal naming the gateway's message", async () => {
  server.handle((_req, res) => json(res, 400, { type: "validation-error", "error-message": "Unknown recurring-payment-id", "error-code": "2" }))
  const e = await client.request("UPDATE_RP_V4", stopRecurringPaymentFields(STOP)).catch((x) => x)
  expect(e).toBeInstanceOf(GatewayValidationError)
  expect(e.message).toMatch(/Unknown recurring-payment-id/)
})

it("refuses to send without a recurring-payment-id", async () => {
  const e = await client.request("UPDATE_RP_V4", stopRecurringPaymentFields({ ...STOP, recurringPaymentId: " " })).catch((x) => x)
  expect(e).toBeInstanceOf(GatewayInputError)
  expect(e.field).toBe("recurring-payment-id")
  expect(server.requests).toHaveLength(0)
})

it("writes the finish date as the UTC calendar day and refuses an invalid date", () => {
  expect(finishDateField(new Date("2026-01-05T00:00:00Z"))).toBe("2026-01-05")
  expect(finishDateField(new Date("2026-12-31T23:59:59.999Z"))).toBe("2026-12-31")
  expect(() => finishDateField(new Date("nope"))).toThrow(RangeError)
})

/**
 * Payouts in the sandbox as the plugin's payout flows use them: the seed's `destination-card-no` accepted by v2
 * payout and v4 payout-check, payout callbacks (single, two-step pay, never for the check), and steering of payout
 * outcomes — approve, decline, stay processing until forced, and a lost reply.
 */
import { generateKeyPairSync } from "node:crypto"
import { startSandbox, type Sandbox } from "../index"
import { call, callOAuth, ENDPOINT, KEY, LOGIN, sha1, sleep, VISA } from "./raw"
import { startMerchant } from "./merchant-server"

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
const RSA = { method: "RSA-SHA256" as const, privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString() }
const HMAC = { method: "HMAC-SHA1" as const }

let sb: Sandbox
let merchant: Awaited<ReturnType<typeof startMerchant>>
beforeAll(async () => {
  merchant = await startMerchant()
  sb = await startSandbox({
    port: 0, processingMs: 5,
    merchants: [{
      login: LOGIN, controlKey: KEY, endpointIds: [ENDPOINT], endpointGroupIds: ["2222"],
      publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    }],
  })
})
afterAll(async () => {
  await sb.close()
  await merchant.close()
})
afterEach(() => {
  sb.control.reset()
  merchant.received.length = 0
})

const fields = (cid: string, dest: Record<string, string>) => ({
  client_orderid: cid, amount: "25.00", currency: "EUR", order_desc: "Payout", ipaddress: "127.0.0.1",
  server_callback_url: `${merchant.url}/cb`, ...dest,
})
const orderOf = (r: { body: Record<string, unknown> }) => String(r.body["paynet-order-id"])

describe("destination-card-no (the seed's name for the destination card)", () => {
  it("v4 payout-check accepts it, keeps only a masked summary, and pay pays it out", async () => {
    const check = await callOAuth(sb.url, "PAYOUT_V4_CHECK", fields("dc-1", { "destination-card-no": VISA }), RSA)
    expect(check.status).toBe(200)
    expect(check.body.type).toBe("async-response")
    const orderid = orderOf(check)
    const checked = await sb.control.waitForOutcome(orderid)
    expect(checked).toMatchObject({ status: "approved", transactionType: "payout-check", destination: { kind: "card", summary: "444455******1111" } })
    expect(JSON.stringify(checked)).not.toContain(VISA)
    const pay = await callOAuth(sb.url, "PAYOUT_V4_PAY", { client_orderid: "dc-1", orderid }, RSA)
    expect(pay.status).toBe(200)
    expect(await sb.control.waitForOutcome(orderid)).toMatchObject({ status: "approved", transactionType: "payout", captured: "25.00" })
  })

  it("v2 payout accepts it too", async () => {
    const r = await callOAuth(sb.url, "PAYOUT", fields("dc-2", { "destination-card-no": VISA }), HMAC)
    expect(await sb.control.waitForOutcome(orderOf(r))).toMatchObject({ status: "approved", destination: { kind: "card" } })
  })

  it("refuses a non-Luhn destination-card-no naming that field, and both card fields at once", async () => {
    const bad = await callOAuth(sb.url, "PAYOUT_V4_CHECK", fields("dc-3", { "destination-card-no": "4444555566661112" }), RSA)
    expect(bad.status).toBe(400)
    expect(bad.body["error-message"]).toMatch(/destination-card-no/)
    const both = await callOAuth(sb.url, "PAYOUT", fields("dc-4", { "destination-card-no": VISA, credit_card_number: VISA }), HMAC)
    expect(both.status).toBe(400)
    expect(both.body["error-message"]).toMatch(/not both/)
    expect(sb.control.transactions()).toHaveLength(0)
  })
})

describe("payout callbacks", () => {
  it("a single-step payout calls back with type payout; the control verifies with the control key", async () => {
    const r = await callOAuth(sb.url, "PAYOUT", fields("cb-1", { wallet_id: "W-1" }), HMAC)
    const [cb] = await merchant.waitFor(1)
    expect(cb.query).toMatchObject({ status: "approved", type: "payout", client_orderid: "cb-1", orderid: orderOf(r), amount: "25.00" })
    expect(cb.query.control).toBe(sha1(`approved${orderOf(r)}cb-1${KEY}`))
  })

  it("two-step: no callback for the check, one for the pay", async () => {
    const check = await callOAuth(sb.url, "PAYOUT_V4_CHECK", fields("cb-2", { phone: "+37120000001" }), RSA)
    const orderid = orderOf(check)
    await sb.control.waitForOutcome(orderid)
    await sleep(50)
    expect(merchant.received).toHaveLength(0)
    await callOAuth(sb.url, "PAYOUT_V4_PAY", { client_orderid: "cb-2", orderid }, RSA)
    const [cb] = await merchant.waitFor(1)
    expect(cb.query).toMatchObject({ status: "approved", type: "payout", client_orderid: "cb-2", orderid })
  })
})

describe("steering payout outcomes", () => {
  it("decline: a declined check can never be paid", async () => {
    sb.control.addFault({ kind: "outcome", operation: "PAYOUT_V4_CHECK", status: "declined", times: 1 })
    const check = await callOAuth(sb.url, "PAYOUT_V4_CHECK", fields("st-1", { wallet_id: "W" }), RSA)
    const orderid = orderOf(check)
    expect(await sb.control.waitForOutcome(orderid)).toMatchObject({ status: "declined", transactionType: "payout-check" })
    const pay = await callOAuth(sb.url, "PAYOUT_V4_PAY", { client_orderid: "st-1", orderid }, RSA)
    expect(pay.status).toBe(400)
    expect(pay.body["error-message"]).toMatch(/not been approved/)
    expect(sb.control.transaction(orderid)?.transactions).toHaveLength(1)
  })

  it("decline of the pay step calls back declined with the reason", async () => {
    sb.control.addFault({ kind: "outcome", operation: "PAYOUT_V4_PAY", status: "declined", times: 1 })
    const check = await callOAuth(sb.url, "PAYOUT_V4_CHECK", fields("st-2", { wallet_id: "W" }), RSA)
    const orderid = orderOf(check)
    await sb.control.waitForOutcome(orderid)
    await callOAuth(sb.url, "PAYOUT_V4_PAY", { client_orderid: "st-2", orderid }, RSA)
    const [cb] = await merchant.waitFor(1)
    expect(cb.query).toMatchObject({ status: "declined", type: "payout" })
    expect(cb.query.error_code).toBeTruthy()
  })

  it("stay processing: the payout stays processing (no callback) until forced", async () => {
    sb.control.addFault({ kind: "outcome", operation: "PAYOUT", status: "processing", times: 1 })
    const r = await callOAuth(sb.url, "PAYOUT", fields("st-3", { wallet_id: "W" }), HMAC)
    const orderid = orderOf(r)
    await sleep(60)
    expect(sb.control.transaction(orderid)?.status).toBe("processing")
    expect(merchant.received).toHaveLength(0)
    sb.control.forceStatus(orderid, "approved")
    const [cb] = await merchant.waitFor(1)
    expect(cb.query).toMatchObject({ status: "approved", type: "payout" })
  })

  it("stay processing works for the pay step too", async () => {
    sb.control.addFault({ kind: "outcome", operation: "PAYOUT_V4_PAY", status: "processing", times: 1 })
    const orderid = orderOf(await callOAuth(sb.url, "PAYOUT_V4_CHECK", fields("st-4", { wallet_id: "W" }), RSA))
    await sb.control.waitForOutcome(orderid)
    await callOAuth(sb.url, "PAYOUT_V4_PAY", { client_orderid: "st-4", orderid }, RSA)
    await sleep(60)
    expect(sb.control.transaction(orderid)).toMatchObject({ status: "processing", transactionType: "payout" })
    sb.control.forceStatus(orderid, "declined")
    expect((await merchant.waitFor(1))[0].query).toMatchObject({ status: "declined", type: "payout" })
  })

  it("lose the reply: the payout is made once, STATUS by client_orderid finds it, the same request is answered the same", async () => {
    sb.control.addFault({ kind: "response-lost", operation: "PAYOUT", times: 1 })
    const f = fields("st-5", { wallet_id: "W" })
    await expect(callOAuth(sb.url, "PAYOUT", f, HMAC)).rejects.toThrow()
    const [order] = sb.control.byClientOrderId("st-5")
    expect(order).toBeDefined()
    const status = await call(sb.url, "STATUS", {
      login: LOGIN, client_orderid: "st-5", control: sha1(`${LOGIN}st-5${KEY}`),
    })
    expect(status.body).toMatchObject({ type: "status-response", "paynet-order-id": order.orderid })
    const again = await callOAuth(sb.url, "PAYOUT", f, HMAC)
    expect(orderOf(again)).toBe(order.orderid)
    expect(sb.control.transactions()).toHaveLength(1)
  })

  it("lose the reply of payout-pay: one pay transaction however often pay is repeated", async () => {
    const orderid = orderOf(await callOAuth(sb.url, "PAYOUT_V4_CHECK", fields("st-6", { wallet_id: "W" }), RSA))
    await sb.control.waitForOutcome(orderid)
    sb.control.addFault({ kind: "response-lost", operation: "PAYOUT_V4_PAY", times: 1 })
    await expect(callOAuth(sb.url, "PAYOUT_V4_PAY", { client_orderid: "st-6", orderid }, RSA)).rejects.toThrow()
    await callOAuth(sb.url, "PAYOUT_V4_PAY", { client_orderid: "st-6", orderid }, RSA)
    const view = await sb.control.waitForOutcome(orderid)
    expect(view.transactions.map((t) => t.type)).toEqual(["payout-check", "payout"])
  })

  it("the HTTP steering accepts the processing outcome and refuses nonsense", async () => {
    const ok = await fetch(`${sb.origin}/__sandbox/faults`, { method: "POST", body: JSON.stringify({ kind: "outcome", status: "processing", operation: "payout" }) })
    expect(ok.status).toBe(200)
    const bad = await fetch(`${sb.origin}/__sandbox/faults`, { method: "POST", body: JSON.stringify({ kind: "outcome", status: "maybe" }) })
    expect(bad.status).toBe(400)
  })
})

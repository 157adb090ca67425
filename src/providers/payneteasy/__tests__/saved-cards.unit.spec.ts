/**
 * saved-cards.ts and the provider's savePaymentMethod against the real sandbox over HTTP: v2 card references (control
 * checksum) without a private key, v4 (RSA-SHA256, a generated key registered in the sandbox) with one; card info is
 * the masked card; a rebill charges exactly the amount once, and a lost rebill reply is resolved by STATUS, not a re-send.
 */
import { generateKeyPairSync } from "node:crypto"
import { DEFAULT_SANDBOX_MERCHANT, payHostedPage, startSandbox, type Sandbox } from "../../../sandbox"
import { PaynetEasyClient } from "../../../gateway"
import { PaynetEasyProviderService } from "../provider"
import { rebillCard, tokenizeCard } from "../../../core/saved-cards/card-gateway"

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
const privateKeyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString()
const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString()

const CARD = { number: "4444555566661111", cvv2: "123", expMonth: "3", expYear: "2030", holder: "Unit Keeper" }
const M = DEFAULT_SANDBOX_MERCHANT

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingMs: 10, merchants: [{ ...M, publicKeyPem }] })
})
afterAll(() => sandbox.close())

const options = (extra: Record<string, unknown> = {}) => ({
  baseUrl: sandbox.url, endpointId: M.endpointIds[0], login: M.login, controlKey: M.controlKey, backendUrl: "http://127.0.0.1:9", ...extra,
})
const client = (extra: Record<string, unknown> = {}) =>
  new PaynetEasyClient({ baseUrl: sandbox.url, endpointId: M.endpointIds[0], login: M.login, controlKey: M.controlKey, ...extra } as any)

let seq = 0
async function approvedHostedOrder(): Promise<{ clientOrderId: string; orderId: string }> {
  const clientOrderId = `unit-card-${++seq}-${Date.now()}`
  const c = client()
  const reply = await c.request("SALEFORM", {
    client_orderid: clientOrderId, order_desc: "x", amount: "1.00", currency: "EUR", address1: "1 St", city: "Berlin",
    zip_code: "10115", country: "DE", phone: "+4930", email: "u@x.test", ipaddress: "127.0.0.1", redirect_url: "http://127.0.0.1:9/r",
  })
  await payHostedPage(reply["redirect-url"], CARD)
  const orderId = reply["paynet-order-id"]!
  await sandbox.control.waitForOutcome(orderId)
  return { clientOrderId, orderId }
}

it("v2 without a private key: card reference + masked card info", async () => {
  const order = await approvedHostedOrder()
  const before = sandbox.control.requests()
  const ref = await tokenizeCard(client(), false, order)
  expect(ref).toEqual({
    card_ref_id: sandbox.control.transaction(order.orderId)!.cardRefId, card_ref_version: "v2",
    brand: expect.any(String), bin: "444455", last4: "1111", exp_month: "03", exp_year: "2030", holder: "Unit Keeper",
  })
  const after = sandbox.control.requests()
  expect((after.CARDREF ?? 0) - (before.CARDREF ?? 0)).toBe(1)
  expect(after.CARDREF_V4 ?? 0).toBe(before.CARDREF_V4 ?? 0)
  expect(JSON.stringify(ref)).not.toContain("4444555566661111")
})

it("provider savePaymentMethod uses v4 (RSA-SHA256) when a private key is configured, v2 otherwise", async () => {
  const order = await approvedHostedOrder()
  const before = sandbox.control.requests()
  const v4 = new PaynetEasyProviderService({}, options({ privateKey: privateKeyPem }))
  const saved = await v4.savePaymentMethod({ data: order } as any)
  expect(saved.id).toBe(sandbox.control.transaction(order.orderId)!.cardRefId)
  expect(saved.data).toMatchObject({ card_ref_version: "v4", last4: "1111" })
  expect((sandbox.control.requests().CARDREF_V4 ?? 0) - (before.CARDREF_V4 ?? 0)).toBe(1)
  expect(sandbox.control.requests().CARDREF ?? 0).toBe(before.CARDREF ?? 0)

  const v2 = new PaynetEasyProviderService({}, options())
  const again = await v2.savePaymentMethod({ data: order } as any)
  expect(again.id).toBe(saved.id) // same order → same reference
  expect(again.data).toMatchObject({ card_ref_version: "v2" })
})

it("a v4 signature with a key the sandbox does not know is refused", async () => {
  const order = await approvedHostedOrder()
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
  await expect(tokenizeCard(client({ privateKeyPem: other }), true, order)).rejects.toThrow()
})

it("rebill: exactly the amount, once; a lost reply is resolved by STATUS without a second rebill", async () => {
  const order = await approvedHostedOrder()
  const { card_ref_id } = await tokenizeCard(client(), false, order)
  const r = await rebillCard(client(), {
    clientOrderId: `unit-rebill-${Date.now()}`, cardRefId: card_ref_id, amount: "12.34", currency: "EUR", description: "r", ip: "127.0.0.1",
  })
  expect(r.kind).toBe("status")
  if (r.kind !== "status") throw new Error("unreachable")
  expect(r.status.status).toBe("approved")
  expect(sandbox.control.transaction(r.orderId!)).toMatchObject({ operation: "REBILL", captured: "12.34", currency: "EUR" })

  const lostId = `unit-rebill-lost-${Date.now()}`
  const rebills = sandbox.control.requests().REBILL ?? 0
  sandbox.control.addFault({ operation: "REBILL", kind: "response-lost", times: 1 })
  const lost = await rebillCard(client({ timeouts: { connectMs: 1000, headersMs: 1500, bodyMs: 1500 } }), {
    clientOrderId: lostId, cardRefId: card_ref_id, amount: "5.00", currency: "EUR", description: "r", ip: "127.0.0.1",
  })
  sandbox.control.clearFaults()
  expect(sandbox.control.requests().REBILL).toBe(rebills + 1)
  expect(lost.kind).toBe("status")
  expect(sandbox.control.byClientOrderId(lostId)).toHaveLength(1)
  expect(sandbox.control.byClientOrderId(lostId)[0]).toMatchObject({ captured: "5.00" })
})

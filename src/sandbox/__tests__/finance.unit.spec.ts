/**
 * The sandbox's finance operations (issue 51), driven by the plugin's own client and builders: PAN eligibility (an
 * eligible card approved, the ineligible test card and a steered card reference declined with the reason, settled by
 * STATUS and by callback), a payout or transfer to an ineligible card declined by the "issuer", get-balance by
 * endpoint and by manager (figures, the balance falling with an approved payout, steering, an account without access),
 * and the documented JSON-list reply on the wire.
 */
import { generateKeyPairSync } from "node:crypto"
import { PaynetEasyClient } from "../../gateway/client"
import { GatewayValidationError } from "../../gateway/errors"
import { balancesOf } from "../../gateway/replies"
import { balanceByEndpointFields, balanceByManagerFields, cardRefFields, panEligibilityFields, payoutV2Fields, statusFields, transferFields } from "../../gateway/requests"
import { startSandbox, type Sandbox } from "../index"
import { INELIGIBLE_TEST_PAN } from "../eligibility"
import { DEFAULT_SANDBOX_MANAGER } from "../options"
import { startMerchant } from "./merchant-server"
import { callOAuth, ENDPOINT, KEY, LOGIN, saleFields, call } from "./raw"

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
const PEM = privateKey.export({ type: "pkcs8", format: "pem" }).toString()

let sb: Sandbox
let client: PaynetEasyClient
let manager: PaynetEasyClient
beforeAll(async () => {
  sb = await startSandbox({
    port: 0, processingMs: 5,
    merchants: [
      { login: LOGIN, controlKey: KEY, endpointIds: [ENDPOINT], publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString() },
      { login: "no-balance", controlKey: "K2", endpointIds: ["3333"], balance: { access: false } },
    ],
  })
  client = new PaynetEasyClient({ baseUrl: sb.url, endpointId: ENDPOINT, login: LOGIN, controlKey: KEY, privateKeyPem: PEM })
  manager = new PaynetEasyClient({ baseUrl: sb.url, login: DEFAULT_SANDBOX_MANAGER.login, controlKey: DEFAULT_SANDBOX_MANAGER.controlKey })
})
afterAll(async () => {
  await client.close()
  await manager.close()
  await sb.close()
})
afterEach(() => sb.control.reset())

async function savedCardRef(cid: string, card = "4444555566661111"): Promise<string> {
  const sale = await call(sb.url, "SALE", saleFields(cid, { credit_card_number: card }))
  const orderid = String(sale.body["paynet-order-id"])
  await sb.control.waitForOutcome(orderid)
  const ref = await client.request("CARDREF_V4", cardRefFields({ clientOrderId: cid, orderId: orderid }))
  return String(ref["card-ref-id"])
}

async function settled(clientOrderId: string, orderId: string) {
  await sb.control.waitForOutcome(orderId)
  return client.request("STATUS", statusFields({ clientOrderId, orderId }))
}

describe("PAN eligibility", () => {
  it("an eligible saved card is approved, by STATUS and by callback", async () => {
    const m = await startMerchant()
    try {
      const ref = await savedCardRef("ok-1")
      const ack = await client.request("PAN_ELIGIBILITY_SEND", panEligibilityFields({ clientOrderId: "e-1", card: { type: "card_ref", cardRefId: ref }, callbackUrl: `${m.url}/cb` }))
      expect(ack.type).toBe("async-response")
      const status = await settled("e-1", String(ack["paynet-order-id"]))
      expect(status).toMatchObject({ status: "approved", "transaction-type": "pan-eligibility", "card-ref-id": ref })
      await m.waitFor(1)
      expect(m.received[0].query).toMatchObject({ status: "approved", client_orderid: "e-1", type: "pan-eligibility" })
    } finally {
      await m.close()
    }
  })

  it("the ineligible test card, typed, is declined with the reason; a typed eligible card is approved", async () => {
    const bad = await client.request("PAN_ELIGIBILITY_SEND", panEligibilityFields({ clientOrderId: "e-2", card: { type: "card", cardNumber: INELIGIBLE_TEST_PAN, holder: "A B", expMonth: "12", expYear: "2030" } }))
    expect(await settled("e-2", String(bad["paynet-order-id"]))).toMatchObject({ status: "declined", "error-code": "470", "error-message": expect.stringMatching(/not eligible/) })
    const good = await client.request("PAN_ELIGIBILITY_SEND", panEligibilityFields({ clientOrderId: "e-3", card: { type: "card", cardNumber: "4444555566661111", holder: "A B", expMonth: "12", expYear: "2030" } }))
    expect(await settled("e-3", String(good["paynet-order-id"]))).toMatchObject({ status: "approved" })
    // nothing of the card number is kept beyond BIN and last four
    expect(JSON.stringify(sb.control.transactions())).not.toContain(INELIGIBLE_TEST_PAN)
  })

  it("steering makes a saved card ineligible; a payout and a transfer to it are declined by the issuer", async () => {
    const ref = await savedCardRef("ok-2")
    sb.control.setCardEligibility({ cardRefId: ref }, false)
    const ack = await client.request("PAN_ELIGIBILITY_SEND", panEligibilityFields({ clientOrderId: "e-4", card: { type: "card_ref", cardRefId: ref } }))
    expect(await settled("e-4", String(ack["paynet-order-id"]))).toMatchObject({ status: "declined", "error-code": "470" })
    const po = await client.request("PAYOUT", payoutV2Fields({ clientOrderId: "po-x", amount: "5.00", currency: "EUR", description: "p", callbackUrl: "http://127.0.0.1:1/cb", destination: { type: "card_ref", cardRefId: ref } }))
    expect(await settled("po-x", String(po["paynet-order-id"]))).toMatchObject({ status: "declined", "error-code": "470" })
    const tr = await client.request("TRANSFER_V4", transferFields({ clientOrderId: "tr-x", amount: "5.00", currency: "EUR", description: "t", callbackUrl: "http://127.0.0.1:1/cb", destination: { type: "card_ref", cardRefId: ref } }))
    expect(await settled("tr-x", String(tr["paynet-order-id"]))).toMatchObject({ status: "declined", "transaction-type": "transfer" })
    expect(sb.control.balance(LOGIN).amount).toBe("10000.00") // nothing left the balance
  })

  it("refuses a check without a card, or with an unknown card reference", async () => {
    const raw = await callOAuth(sb.url, "PAN_ELIGIBILITY_SEND", { "client-order-id": "e-5" }, { method: "HMAC-SHA1" })
    expect(raw.status).toBe(400)
    expect(raw.body["error-message"]).toMatch(/One of sending-card-ref-id, sending-card-number is required/)
    const e = await client.request("PAN_ELIGIBILITY_SEND", panEligibilityFields({ clientOrderId: "e-6", card: { type: "card_ref", cardRefId: "999" } })).catch((x) => x)
    expect(e).toBeInstanceOf(GatewayValidationError)
  })
})

describe("get-balance", () => {
  it("by endpoint: the documented JSON list on the wire, and the figure read exactly", async () => {
    const raw = await callOAuth(sb.url, "GET_BALANCE", { "balance-provider": "sandbox-balance" }, { method: "HMAC-SHA1" })
    expect(raw.text).toBe('[{"balance-amount":10000.00}]')
    const reply = await client.request("GET_BALANCE", balanceByEndpointFields({ provider: "sandbox-balance" }))
    expect(balancesOf(reply)).toEqual([expect.objectContaining({ amount: "10000.00" })])
    const legacy = await callOAuth(sb.url, "GET_BALANCE", { "balance-provider": "sandbox-balance" }, { method: "HMAC-SHA1", accept: "text/html" })
    expect(legacy.text).toBe("balance-amount=10000.00\n")
  })

  it("an approved payout takes its amount off; a steered figure shows by manager with holds and reserve", async () => {
    const po = await client.request("PAYOUT", payoutV2Fields({ clientOrderId: "po-b", amount: "250.25", currency: "EUR", description: "p", callbackUrl: "http://127.0.0.1:1/cb", destination: { type: "wallet", walletId: "W1" } }))
    await sb.control.waitForOutcome(String(po["paynet-order-id"]))
    expect(sb.control.balance(LOGIN)).toMatchObject({ amount: "9749.75", live: "9749.75" })
    sb.control.setBalance(LOGIN, { amount: "500.00", shortTermHolds: "120.50", rollingReserve: "50.00" })
    const reply = await manager.request("GET_BALANCE_MANAGER", balanceByManagerFields())
    // the merchant without access is left out of the manager's list
    expect(balancesOf(reply)).toEqual([{
      name: "default", amount: "500.00", liveAmount: "329.50", shortTermHolds: "120.50", rollingReserve: "50.00",
      bufferHold: "0.00", currency: "EUR", merchantLogin: LOGIN,
    }])
    const named = await manager.request("GET_BALANCE_MANAGER", balanceByManagerFields({ balanceName: "nope" })).catch((x) => x)
    expect(named).toBeInstanceOf(GatewayValidationError)
  })

  it("an account without balance access is refused in words; a wrong provider too", async () => {
    const other = new PaynetEasyClient({ baseUrl: sb.url, endpointId: "3333", login: "no-balance", controlKey: "K2" })
    try {
      const e = await other.request("GET_BALANCE", balanceByEndpointFields({ provider: "sandbox-balance" })).catch((x) => x)
      expect(e).toBeInstanceOf(GatewayValidationError)
      expect(e.gatewayMessage).toMatch(/not enabled for this account/)
    } finally {
      await other.close()
    }
    const wrong = await client.request("GET_BALANCE", balanceByEndpointFields({ provider: "other" })).catch((x) => x)
    expect(wrong.gatewayMessage).toMatch(/Unknown balance-provider/)
    sb.control.setBalance(LOGIN, { access: false })
    expect((await client.request("GET_BALANCE", balanceByEndpointFields({ provider: "sandbox-balance" })).catch((x) => x)).gatewayMessage).toMatch(/not enabled/)
  })

  it("by manager: a wrong manager key is a 403", async () => {
    const bad = new PaynetEasyClient({ baseUrl: sb.url, login: DEFAULT_SANDBOX_MANAGER.login, controlKey: "WRONG" })
    try {
      const e = await bad.request("GET_BALANCE_MANAGER", balanceByManagerFields()).catch((x) => x)
      expect(e.httpStatus).toBe(403)
    } finally {
      await bad.close()
    }
  })
})

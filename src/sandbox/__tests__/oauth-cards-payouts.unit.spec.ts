/**
 * OAuth-signed operations (HMAC-SHA1 v2 payout, RSA-SHA256 v4) with the 403 refusals (bad signature, replayed
 * nonce, stale timestamp, wrong method), and the card-reference, rebill, recurring, payout, transfer and
 * PAN-eligibility operations.
 */
import { generateKeyPairSync } from "node:crypto"
import { payHostedPage, startSandbox, type Sandbox } from "../index"
import { startMerchant } from "./merchant-server"
import { call, callOAuth, followControl, KEY, LOGIN, oauthHeader, saleFields, sha1, VISA, ENDPOINT, cents } from "./raw"

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
const privateKeyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString()
const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString()

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({
    port: 0, processingMs: 5,
    merchants: [{ login: LOGIN, controlKey: KEY, endpointIds: [ENDPOINT], endpointGroupIds: ["2222"], publicKeyPem }],
  })
})
afterAll(() => sb.close())
afterEach(() => sb.control.reset())

const payoutFields = (cid: string, dest: Record<string, string>) => ({
  client_orderid: cid, amount: "25.00", currency: "EUR", order_desc: "Payout", ipaddress: "127.0.0.1", ...dest,
})
const HMAC = { method: "HMAC-SHA1" as const }
const RSA = { method: "RSA-SHA256" as const, privateKeyPem }

async function approvedSale(cid: string): Promise<string> {
  const r = await call(sb.url, "SALE", saleFields(cid))
  const orderid = String(r.body["paynet-order-id"])
  await sb.control.waitForOutcome(orderid)
  return orderid
}

describe("OAuth verification", () => {
  it("accepts a correct HMAC-SHA1 payout (key = control key + &)", async () => {
    const r = await callOAuth(sb.url, "PAYOUT", payoutFields("po-1", { credit_card_number: VISA, card_printed_name: "JANE" }), HMAC)
    expect(r.status).toBe(200)
    expect(r.body.type).toBe("async-response")
    expect((await sb.control.waitForOutcome(String(r.body["paynet-order-id"])))).toMatchObject({ status: "approved", transactionType: "payout" })
  })

  it("answers 403 to a bad signature, a wrong key, and a missing header", async () => {
    const f = payoutFields("po-2", { wallet_id: "W1" })
    const url = `${sb.url}/api/v2/payout/${ENDPOINT}`
    const header = oauthHeader(url, f, HMAC).replace(/oauth_signature="[^"]+"/, 'oauth_signature="AAAA"')
    expect((await call(sb.url, "PAYOUT", f, { headers: { authorization: header } })).status).toBe(403)
    expect((await callOAuth(sb.url, "PAYOUT", f, { method: "HMAC-SHA1", key: "WRONG" })).status).toBe(403)
    expect((await call(sb.url, "PAYOUT", f)).status).toBe(403)
    expect((await callOAuth(sb.url, "PAYOUT", { ...f }, { ...HMAC, consumer: "stranger" })).status).toBe(403)
    expect(sb.control.transactions()).toHaveLength(0)
  })

  it("refuses a replayed nonce and a stale timestamp with 403", async () => {
    const f = payoutFields("po-3", { wallet_id: "W1" })
    expect((await callOAuth(sb.url, "PAYOUT", f, { ...HMAC, nonce: "n-1" })).status).toBe(200)
    const replay = await callOAuth(sb.url, "PAYOUT", f, { ...HMAC, nonce: "n-1" })
    expect(replay.status).toBe(403)
    expect(replay.text).toMatch(/nonce/)
    const stale = await callOAuth(sb.url, "PAYOUT", payoutFields("po-4", { wallet_id: "W1" }), { ...HMAC, timestamp: Math.floor(Date.now() / 1000) - 301 })
    expect(stale.status).toBe(403)
    expect(stale.text).toMatch(/timestamp/)
  })

  it("accepts oauth_* parameters sent in the body", async () => {
    const f = payoutFields("po-5", { wallet_id: "W1" })
    const header = oauthHeader(`${sb.url}/api/v2/payout/${ENDPOINT}`, f, HMAC)
    const oauth = Object.fromEntries([...header.matchAll(/(oauth_[a-z_]+)="([^"]*)"/g)].map((m) => [m[1], decodeURIComponent(m[2])]))
    expect((await call(sb.url, "PAYOUT", { ...f, ...oauth })).status).toBe(200)
  })

  it("v4 needs RSA-SHA256: HMAC is refused, an RSA signature from another key is refused", async () => {
    const f = payoutFields("chk-1", { account_number: "LV00BANK0000435195001", bank_name: "Bank", bank_branch: "Riga" })
    expect((await callOAuth(sb.url, "PAYOUT_V4_CHECK", f, HMAC)).status).toBe(403)
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
    expect((await callOAuth(sb.url, "PAYOUT_V4_CHECK", f, { method: "RSA-SHA256", privateKeyPem: other })).status).toBe(403)
    expect((await callOAuth(sb.url, "PAYOUT_V4_CHECK", f, RSA)).status).toBe(200)
  })

  it("refuses RSA for a merchant without a registered public key", async () => {
    const bare = await startSandbox({ port: 0, processingMs: 5 })
    try {
      const r = await callOAuth(bare.url, "PAYOUT_V4_CHECK", payoutFields("chk-2", { wallet_id: "W" }), RSA)
      expect(r.status).toBe(403)
      expect(r.text).toMatch(/public key/)
    } finally {
      await bare.close()
    }
  })
})

describe("two-step payout", () => {
  it("pay only after check; pay again returns the same reply", async () => {
    const check = await callOAuth(sb.url, "PAYOUT_V4_CHECK", payoutFields("two-1", { "destination-card-ref-id": "nope" }), RSA)
    expect(check.body["error-message"]).toMatch(/destination-card-ref-id/)
    const ok = await callOAuth(sb.url, "PAYOUT_V4_CHECK", payoutFields("two-2", { phone: "+37120000001" }), RSA)
    const orderid = String(ok.body["paynet-order-id"])
    expect((await sb.control.waitForOutcome(orderid))).toMatchObject({ transactionType: "payout-check", status: "approved", captured: "0.00" })
    const pay = await callOAuth(sb.url, "PAYOUT_V4_PAY", { client_orderid: "two-2", orderid }, RSA)
    expect(pay.status).toBe(200)
    const again = await callOAuth(sb.url, "PAYOUT_V4_PAY", { client_orderid: "two-2", orderid }, RSA)
    expect(again.body["serial-number"]).toBe(pay.body["serial-number"])
    expect((await sb.control.waitForOutcome(orderid))).toMatchObject({ transactionType: "payout", status: "approved", captured: "25.00" })
    const saleOrder = await approvedSale("two-3")
    expect((await callOAuth(sb.url, "PAYOUT_V4_PAY", { client_orderid: "two-3", orderid: saleOrder }, RSA)).body["error-message"]).toMatch(/payout-check/)
  })

  it("refuses a payout without a destination and a bank account without bank details", async () => {
    expect((await callOAuth(sb.url, "PAYOUT", payoutFields("nd-1", {}), HMAC)).body["error-message"]).toMatch(/destination is required/)
    expect((await callOAuth(sb.url, "PAYOUT", payoutFields("nd-2", { account_number: "123" }), HMAC)).body["error-message"]).toMatch(/bank_name/)
  })

  it("payout-form shows a destination page; submitting a bank account pays out", async () => {
    const f = { client_orderid: "pf-1", amount: "5.00", currency: "EUR", redirect_url: "http://127.0.0.1:9/back" }
    const r = await callOAuth(sb.url, "PAYOUTFORM", f, HMAC)
    expect(r.body.type).toBe("async-form-response")
    const page = String(r.body["redirect-url"])
    const html = await (await fetch(page)).text()
    expect(html).toContain('id="payout-form"')
    const out = await payHostedPage(page, { number: VISA, cvv2: "", expMonth: "12", expYear: "2099", holder: "JANE" })
    expect(out.params).toMatchObject({ status: "approved", type: "payout", amount: "5.00", "last-four-digits": "1111" })
  })
})

describe("card references and rebill", () => {
  it("CARDREF from an approved sale, CARDINFO reads it back, REBILL charges it", async () => {
    const orderid = await approvedSale("ref-1")
    const ref = await call(sb.url, "CARDREF", { login: LOGIN, client_orderid: "ref-1", orderid, control: followControl("ref-1", orderid) })
    expect(ref.body).toMatchObject({ type: "create-card-ref-response", status: "approved" })
    const cardrefid = String(ref.body["card-ref-id"])
    const again = await call(sb.url, "CARDREF", { login: LOGIN, client_orderid: "ref-1", orderid, control: followControl("ref-1", orderid) })
    expect(again.body["card-ref-id"]).toBe(cardrefid)

    const info = await call(sb.url, "CARDINFO", { login: LOGIN, cardrefid, control: sha1(LOGIN + cardrefid + KEY) })
    expect(info.body).toMatchObject({
      type: "get-card-info-response", "card-printed-name": "JOHN DOE", "expire-month": "12", "expire-year": "2099",
      bin: "444455", "last-four-digits": "1111", "card-type": "VISA",
    })

    const rebillFields = (cid: string) => ({
      login: LOGIN, client_orderid: cid, cardrefid, amount: "3.50", currency: "EUR", order_desc: "Monthly", ipaddress: "127.0.0.1",
      control: sha1(LOGIN + cid + cardrefid + cents("3.50") + "EUR" + KEY),
    })
    const rb = await call(sb.url, "REBILL", rebillFields("rb-1"))
    expect(rb.status).toBe(200)
    expect(await sb.control.waitForOutcome(String(rb.body["paynet-order-id"]))).toMatchObject({ status: "approved", amount: "3.50", cardRefId: cardrefid })
    sb.control.setCardRefBehaviour(cardrefid, "decline-funds")
    const rb2 = await call(sb.url, "REBILL", rebillFields("rb-2"))
    expect(await sb.control.waitForOutcome(String(rb2.body["paynet-order-id"]))).toMatchObject({ status: "declined" })
  })

  it("refuses a card reference for a declined order and an unknown cardrefid", async () => {
    const r = await call(sb.url, "SALE", saleFields("ref-2", { cvv2: "101" }))
    const orderid = String(r.body["paynet-order-id"])
    await sb.control.waitForOutcome(orderid)
    const ref = await call(sb.url, "CARDREF", { login: LOGIN, client_orderid: "ref-2", orderid, control: followControl("ref-2", orderid) })
    expect(ref.body["error-message"]).toMatch(/approved/)
    const info = await call(sb.url, "CARDINFO", { login: LOGIN, cardrefid: "42", control: sha1(LOGIN + "42" + KEY) })
    expect(info.body["error-message"]).toMatch(/Unknown cardrefid/)
  })

  it("CARDREF_V4 (RSA) and CREATE_RP_V4 return ids; PAN eligibility and transfer work on the reference", async () => {
    const orderid = await approvedSale("ref-3")
    const ref = await callOAuth(sb.url, "CARDREF_V4", { client_orderid: "ref-3", orderid }, RSA)
    expect(ref.body).toMatchObject({ type: "create-card-ref-response", "card-ref-id": expect.any(String), "unq-card-ref-id": expect.any(String) })
    const cardrefid = String(ref.body["card-ref-id"])
    const rp = await callOAuth(sb.url, "CREATE_RP_V4", {
      "client-orderid": "rp-1", amount: "9.99", currency: "EUR", period: "month", interval: "1", cardrefid,
    }, RSA)
    expect(rp.body).toMatchObject({ "recurring-payment-id": expect.any(String), status: "approved" })
    const pan = await callOAuth(sb.url, "PAN_ELIGIBILITY_SEND", { "client-order-id": "pe-1", "sending-card-ref-id": cardrefid }, HMAC)
    expect(pan.body.type).toBe("async-response")
    const tr = await callOAuth(sb.url, "TRANSFER_V4", {
      client_orderid: "tr-1", amount: "1.00", currency: "EUR", credit_card_number: VISA, expire_month: "12", expire_year: "2099",
      cvv2: "123", card_printed_name: "JOHN DOE", "destination-card-ref-id": cardrefid,
    }, RSA)
    expect(await sb.control.waitForOutcome(String(tr.body["paynet-order-id"]))).toMatchObject({ status: "approved", transactionType: "transfer" })
  })

  it("a recurring payment carries its schedule; 'the next charge now' makes approved / declined / lost charges with signed callbacks", async () => {
    const m = await startMerchant()
    try {
      const orderid = await approvedSale("ref-rp")
      const ref = await callOAuth(sb.url, "CARDREF_V4", { client_orderid: "ref-rp", orderid }, RSA)
      const rp = await callOAuth(sb.url, "CREATE_RP_V4", {
        "client-orderid": "rp-sched", amount: "9.99", currency: "EUR", period: "month", interval: "3",
        cardrefid: String(ref.body["card-ref-id"]), server_callback_url: `${m.url}/cb`,
      }, RSA)
      const rpId = String(rp.body["recurring-payment-id"])
      const created = sb.control.recurringPayment(rpId)
      expect(created.schedule).toMatchObject({ period: "month", interval: 3, state: "active", chargeOrderids: [] })
      const firstDue = new Date(created.schedule!.nextChargeAt)
      expect(Math.round((firstDue.getTime() - Date.now()) / 86_400_000)).toBeGreaterThanOrEqual(89)
      expect(m.received).toHaveLength(0) // the creation itself is answered synchronously, no callback

      const approved = sb.control.runRecurringCharge(rpId, "approved")
      expect(approved).toMatchObject({ kind: "recurring-charge", clientOrderId: "rp-sched-c1", status: "approved", initialAmount: "9.99", captured: "9.99" })
      const [cb] = await m.waitFor(1)
      expect(cb.query).toMatchObject({ status: "approved", orderid: approved.orderid, client_orderid: "rp-sched-c1", amount: "9.99", "recurring-payment-id": rpId })
      expect(cb.query.control).toBe(sha1("approved" + approved.orderid + "rp-sched-c1" + KEY))

      const declined = sb.control.runRecurringCharge(rpId, "declined")
      const [, cb2] = await m.waitFor(2)
      expect(cb2.query).toMatchObject({ status: "declined", client_orderid: "rp-sched-c2", error_code: "116" })
      expect(declined.status).toBe("declined")

      const lost = sb.control.runRecurringCharge(rpId, "lost")
      expect(lost).toMatchObject({ status: "approved", clientOrderId: "rp-sched-c3" })
      await new Promise((r) => setTimeout(r, 100))
      expect(m.received).toHaveLength(2)
      const after = sb.control.recurringPayment(rpId)
      expect(after.schedule!.chargeOrderids).toEqual([approved.orderid, declined.orderid, lost.orderid])
      expect(new Date(after.schedule!.nextChargeAt).getTime()).toBeGreaterThan(firstDue.getTime())
      const status = await call(sb.url, "STATUS", { login: LOGIN, client_orderid: "rp-sched-c3", orderid: lost.orderid, control: followControl("rp-sched-c3", lost.orderid) })
      expect(status.body).toMatchObject({ status: "approved", "recurring-payment-id": rpId })
      expect(() => sb.control.runRecurringCharge("999", "approved")).toThrow(/unknown recurring-payment-id/)
    } finally {
      await m.close()
    }
  })
})

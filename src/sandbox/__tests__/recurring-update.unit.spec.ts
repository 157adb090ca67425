/**
 * update-recurring-payment in the sandbox (UPDATE_RP_V4, RSA-SHA256 checked by the sandbox's own verifier): a finish
 * date of today stops the schedule ("upon reaching finish date, Recurring payment will go into stop status"), a
 * stopped schedule makes no charge and "the next charge now" on it is refused (in code and over the steering HTTP
 * API); a later finish date stops the schedule when its next charge would fall after it; max-repeats-number stops it
 * after that many charges. The update is idempotent per client-orderid and STATUS finds it (how a lost reply is
 * settled); refusals (unknown id, a malformed date, nothing to change, a steered refusal, an HMAC signature) change
 * nothing.
 */
import { generateKeyPairSync } from "node:crypto"
import { startSandbox, type Sandbox } from "../index"
import { call, callOAuth, followControl, KEY, LOGIN, saleFields, ENDPOINT } from "./raw"

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
const RSA = { method: "RSA-SHA256" as const, privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString() }

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({
    port: 0, processingMs: 5,
    merchants: [{ login: LOGIN, controlKey: KEY, endpointIds: [ENDPOINT], publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString() }],
  })
})
afterAll(() => sb.close())
afterEach(() => sb.control.reset())

const day = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10)

async function recurringPayment(cid: string, period = "month"): Promise<string> {
  const sale = await call(sb.url, "SALE", saleFields(`sale-${cid}`))
  const orderid = String(sale.body["paynet-order-id"])
  await sb.control.waitForOutcome(orderid)
  const ref = await callOAuth(sb.url, "CARDREF_V4", { client_orderid: `sale-${cid}`, orderid }, RSA)
  const rp = await callOAuth(sb.url, "CREATE_RP_V4", {
    "client-orderid": cid, amount: "9.99", currency: "EUR", period, interval: "1", cardrefid: String(ref.body["card-ref-id"]),
  }, RSA)
  return String(rp.body["recurring-payment-id"])
}

const update = (fields: Record<string, string>) => callOAuth(sb.url, "UPDATE_RP_V4", fields, RSA)
const steerCharge = (rpId: string) =>
  fetch(`${sb.origin}/__sandbox/recurring-payments/${rpId}/charge`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ outcome: "approved" }),
  })

it("a finish date of today stops the schedule: no charge, and 'the next charge now' is refused", async () => {
  const rpId = await recurringPayment("rp-stop")
  const r = await update({ "client-orderid": "rp-stop-stop", "recurring-payment-id": rpId, "finish-date": day() })
  expect(r.status).toBe(200)
  expect(r.body).toMatchObject({ type: "update-recurring-payment-response", status: "approved", "recurring-payment-id": rpId, "serial-number": expect.any(String) })
  expect(sb.control.recurringPayment(rpId).schedule).toMatchObject({ state: "stopped", finishDate: day(), chargeOrderids: [] })
  expect(() => sb.control.runRecurringCharge(rpId, "approved")).toThrow(/stopped/)
  const steered = await steerCharge(rpId)
  expect([steered.status, ((await steered.json()) as { error: string }).error]).toEqual([400, expect.stringMatching(/stopped.*no charge/)])
  expect(sb.control.recurringPayment(rpId).schedule!.chargeOrderids).toEqual([])
  expect(sb.control.transactions().filter((t) => t.kind === "recurring-charge")).toHaveLength(0)

  // the same request again answers the same reply; another request with that client-orderid is refused
  const again = await update({ "client-orderid": "rp-stop-stop", "recurring-payment-id": rpId, "finish-date": day() })
  expect(again.body).toEqual(r.body)
  const reuse = await update({ "client-orderid": "rp-stop-stop", "recurring-payment-id": rpId, "finish-date": day(1) })
  expect(reuse.body).toMatchObject({ type: "validation-error", "error-message": expect.stringMatching(/already used/) })

  // STATUS by the update's client-orderid finds it: how a lost reply is settled
  const status = await call(sb.url, "STATUS", { login: LOGIN, client_orderid: "rp-stop-stop", control: followControl("rp-stop-stop", "") })
  expect(status.body).toMatchObject({ type: "status-response", status: "approved", "transaction-type": "recurring-update", "recurring-payment-id": rpId })
})

it("a later finish date stops the schedule when its next charge would fall after it; max-repeats-number after that many charges", async () => {
  const daily = await recurringPayment("rp-later", "day")
  await update({ "client-orderid": "rp-later-u", "recurring-payment-id": daily, "finish-date": day(2) })
  expect(sb.control.recurringPayment(daily).schedule!.state).toBe("active")
  expect(sb.control.runRecurringCharge(daily, "approved").status).toBe("approved") // due tomorrow: before the finish date
  expect(sb.control.runRecurringCharge(daily, "approved").status).toBe("approved") // due in two days: the finish date
  expect(() => sb.control.runRecurringCharge(daily, "approved")).toThrow(/stopped/) // would fall after it
  expect(sb.control.recurringPayment(daily).schedule!.chargeOrderids).toHaveLength(2)

  const monthly = await recurringPayment("rp-repeats")
  const r = await update({ "client-orderid": "rp-repeats-u", "recurring-payment-id": monthly, "max-repeats-number": "1" })
  expect(r.body.status).toBe("approved")
  sb.control.runRecurringCharge(monthly, "approved")
  expect(() => sb.control.runRecurringCharge(monthly, "approved")).toThrow(/stopped/)
})

it("refuses, changing nothing: an unknown id, a malformed date, nothing to change, a steered refusal, an HMAC signature", async () => {
  const rpId = await recurringPayment("rp-refuse")
  const refused = async (fields: Record<string, string>, message: RegExp) => {
    const r = await update(fields)
    expect(r.body).toMatchObject({ type: "validation-error", "error-message": expect.stringMatching(message) })
    expect(sb.control.recurringPayment(rpId).schedule).toMatchObject({ state: "active" })
    expect(sb.control.recurringPayment(rpId).schedule!.finishDate).toBeUndefined()
  }
  await refused({ "client-orderid": "u-1", "recurring-payment-id": "999999", "finish-date": day() }, /Unknown recurring-payment-id/)
  await refused({ "client-orderid": "u-2", "recurring-payment-id": rpId, "finish-date": "25.11.2026" }, /YYYY-MM-DD/)
  await refused({ "client-orderid": "u-3", "recurring-payment-id": rpId, "finish-date": "2026-02-30" }, /YYYY-MM-DD/)
  await refused({ "client-orderid": "u-4", "recurring-payment-id": rpId }, /Nothing to update/)
  sb.control.addFault({ kind: "outcome", status: "error", operation: "UPDATE_RP_V4", times: 1 })
  await refused({ "client-orderid": "u-5", "recurring-payment-id": rpId, "finish-date": day() }, /cannot be updated now/)
  const hmac = await callOAuth(sb.url, "UPDATE_RP_V4", { "client-orderid": "u-6", "recurring-payment-id": rpId, "finish-date": day() }, { method: "HMAC-SHA1" })
  expect(hmac.status).toBe(403)
  expect(sb.control.recurringPayment(rpId).schedule!.state).toBe("active")
  // a refused client-orderid made nothing: the same id may be sent again and is then applied
  const ok = await update({ "client-orderid": "u-5", "recurring-payment-id": rpId, "finish-date": day() })
  expect(ok.body.status).toBe("approved")
  expect(sb.control.recurringPayment(rpId).schedule!.state).toBe("stopped")
})

it("a lost reply: the gateway applied the update; STATUS by its client-orderid says so", async () => {
  const rpId = await recurringPayment("rp-lost")
  sb.control.addFault({ kind: "response-lost", operation: "UPDATE_RP_V4", times: 1 })
  await expect(update({ "client-orderid": "rp-lost-stop", "recurring-payment-id": rpId, "finish-date": day() })).rejects.toThrow()
  expect(sb.control.recurringPayment(rpId).schedule!.state).toBe("stopped")
  const status = await call(sb.url, "STATUS", { login: LOGIN, client_orderid: "rp-lost-stop", control: followControl("rp-lost-stop", "") })
  expect(status.body).toMatchObject({ status: "approved", "recurring-payment-id": rpId })
})

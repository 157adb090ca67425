/**
 * Server callbacks (notes §7): GET with the documented parameters and control, the merchant's own query kept,
 * retried until 200, follow-up callbacks to notify_url, and the callback faults (off, delay, duplicate, out of order).
 */
import { startSandbox, type Sandbox } from "../index"
import { call, followControl, KEY, LOGIN, saleFields, sha1 } from "./raw"
import { startMerchant } from "./merchant-server"

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, processingMs: 5, callbackBackoffMs: 10, callbackAttempts: 4 })
})
afterAll(() => sb.close())
afterEach(() => sb.control.reset())

const until = async (cond: () => boolean, what: string) => {
  for (let i = 0; i < 500; i++) {
    if (cond()) return
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`timed out waiting for ${what}`)
}

it("sends a GET with the documented parameters, a valid control, and the merchant's query kept", async () => {
  const m = await startMerchant()
  try {
    const r = await call(sb.url, "SALE", saleFields("cb-1", { server_callback_url: `${m.url}/cb?shop=7&token=abc`, merchant_data: "md-1" }))
    const orderid = String(r.body["paynet-order-id"])
    const [got] = await m.waitFor(1)
    expect(got.method).toBe("GET")
    expect(got.path).toBe("/cb")
    expect(got.query).toMatchObject({
      shop: "7", token: "abc", status: "approved", orderid, client_orderid: "cb-1", merchant_order: "cb-1", type: "sale",
      amount: "10.42", currency: "EUR", "last-four-digits": "1111", bin: "444455", "card-type": "VISA",
      "processor-tx-id": `PNTEST-${orderid}`, error_message: "", merchantdata: "md-1", email: "payer@example.com",
    })
    expect(got.query.control).toBe(sha1("approved" + orderid + "cb-1" + KEY))
    await until(() => sb.control.callbacks().length === 1, "record")
    expect(sb.control.callbacks()[0]).toMatchObject({ orderid, httpStatus: 200, attempt: 1, outcome: "sent" })
  } finally {
    await m.close()
  }
})

it("sends a callback for declines too, with the reason", async () => {
  const m = await startMerchant()
  try {
    await call(sb.url, "SALE", saleFields("cb-2", { cvv2: "119", server_callback_url: `${m.url}/cb` }))
    const [got] = await m.waitFor(1)
    expect(got.query).toMatchObject({ status: "declined", error_code: "119" })
  } finally {
    await m.close()
  }
})

it("retries with backoff until the merchant answers 200", async () => {
  const m = await startMerchant([500, 503])
  try {
    await call(sb.url, "SALE", saleFields("cb-3", { server_callback_url: `${m.url}/cb` }))
    await m.waitFor(3)
    await until(() => sb.control.callbacks().length === 3, "3 attempts recorded")
    expect(sb.control.callbacks().map((c) => [c.attempt, c.httpStatus])).toEqual([[1, 500], [2, 503], [3, 200]])
  } finally {
    await m.close()
  }
})

it("gives up after the configured number of attempts", async () => {
  const m = await startMerchant([500, 500, 500, 500, 500, 500])
  try {
    await call(sb.url, "SALE", saleFields("cb-4", { server_callback_url: `${m.url}/cb` }))
    await until(() => sb.control.callbacks().length === 4, "4 attempts")
    await new Promise((r) => setTimeout(r, 150))
    expect(m.received).toHaveLength(4)
  } finally {
    await m.close()
  }
})

it("sends follow-up callbacks (capture, reversal, chargeback) to notify_url", async () => {
  const initial = await startMerchant()
  const notify = await startMerchant()
  try {
    const r = await call(sb.url, "PREAUTH", saleFields("cb-5", { server_callback_url: `${initial.url}/s`, notify_url: `${notify.url}/n` }))
    const orderid = String(r.body["paynet-order-id"])
    await initial.waitFor(1)
    await call(sb.url, "CAPTURE", { login: LOGIN, client_orderid: "cb-5", orderid, amount: "5.00", currency: "EUR", control: followControl("cb-5", orderid, "5.00", "EUR") })
    await notify.waitFor(1)
    await call(sb.url, "RETURN", { login: LOGIN, client_orderid: "cb-5", orderid, amount: "1.00", currency: "EUR", control: followControl("cb-5", orderid, "1.00", "EUR") })
    await notify.waitFor(2)
    sb.control.chargeback(orderid)
    const got = await notify.waitFor(3)
    expect(got.map((g) => [g.query.type, g.query.status, g.query.amount])).toEqual([
      ["capture", "approved", "5.00"], ["reversal", "approved", "1.00"], ["chargeback", "approved", "4.00"],
    ])
    expect(initial.received.map((g) => g.query.type)).toEqual(["preauth"])
  } finally {
    await initial.close()
    await notify.close()
  }
})

it("sends every dispute's callback to notify_url with its reason code and serial number (issue 51)", async () => {
  const notify = await startMerchant()
  try {
    const r = await call(sb.url, "SALE", saleFields("cb-disp", { notify_url: `${notify.url}/n` }))
    const orderid = String(r.body["paynet-order-id"])
    await notify.waitFor(1)
    sb.control.dispute(orderid, "retrieval_request", { reasonCode: "RR-1" })
    sb.control.dispute(orderid, "fraud_marker")
    sb.control.dispute(orderid, "chargeback", { amount: "4.00" })
    sb.control.dispute(orderid, "chargeback_reversal", { amount: "4.00" })
    const v = sb.control.dispute(orderid, "second_chargeback", { amount: "4.00" })
    const got = (await notify.waitFor(6)).slice(1)
    expect(got.map((g) => [g.query.type, g.query.status, g.query.amount, g.query["reason-code"]])).toEqual([
      ["retrieval_request", "approved", "10.42", "RR-1"], ["fraud", "approved", "10.42", "TC40-6"], ["chargeback", "approved", "4.00", "13.1"],
      ["chargeback_reversal", "approved", "4.00", "CR-13.1"], ["second_chargeback", "approved", "4.00", "4853"],
    ])
    expect(got.map((g) => g.query["serial-number"])).toEqual(v.transactions.slice(1).map((t) => t.serial))
  } finally {
    await notify.close()
  }
})

it("falls back to server_callback_url for follow-ups when there is no notify_url", async () => {
  const m = await startMerchant()
  try {
    const r = await call(sb.url, "SALE", saleFields("cb-6", { server_callback_url: `${m.url}/s` }))
    const orderid = String(r.body["paynet-order-id"])
    await m.waitFor(1)
    await call(sb.url, "VOID", { login: LOGIN, client_orderid: "cb-6", orderid, control: followControl("cb-6", orderid) })
    const got = await m.waitFor(2)
    expect(got[1].query).toMatchObject({ type: "void", status: "approved" })
  } finally {
    await m.close()
  }
})

it("callback-off suppresses, callback-duplicate sends twice", async () => {
  const m = await startMerchant()
  try {
    sb.control.addFault({ kind: "callback-off", operation: "SALE", times: 1 })
    sb.control.addFault({ kind: "callback-duplicate", operation: "PREAUTH", times: 1 })
    await call(sb.url, "SALE", saleFields("cb-7", { server_callback_url: `${m.url}/s` }))
    await call(sb.url, "PREAUTH", saleFields("cb-8", { server_callback_url: `${m.url}/p` }))
    await m.waitFor(2)
    await new Promise((r) => setTimeout(r, 100))
    expect(m.received.map((g) => g.path)).toEqual(["/p", "/p"])
    expect(sb.control.callbacks().filter((c) => c.outcome === "suppressed").map((c) => c.clientOrderId)).toEqual(["cb-7"])
  } finally {
    await m.close()
  }
})

it("callback-out-of-order holds a callback until the next one was sent", async () => {
  const m = await startMerchant()
  try {
    sb.control.addFault({ kind: "callback-out-of-order", operation: "PREAUTH", times: 1, holdMs: 5000 })
    const r = await call(sb.url, "PREAUTH", saleFields("cb-9", { server_callback_url: `${m.url}/s` }))
    const orderid = String(r.body["paynet-order-id"])
    await sb.control.waitForOutcome(orderid)
    await call(sb.url, "CAPTURE", { login: LOGIN, client_orderid: "cb-9", orderid, control: followControl("cb-9", orderid) })
    const got = await m.waitFor(2)
    expect(got.map((g) => g.query.type)).toEqual(["capture", "preauth"])
  } finally {
    await m.close()
  }
})

it("callback-delay and callbackDelayMs delay the first attempt", async () => {
  const m = await startMerchant()
  try {
    sb.control.addFault({ kind: "callback-delay", ms: 1500 })
    const r = await call(sb.url, "SALE", saleFields("cb-10", { server_callback_url: `${m.url}/s` }))
    const orderid = String(r.body["paynet-order-id"])
    await sb.control.waitForOutcome(orderid)
    expect(m.received).toHaveLength(0) // decided, but the callback is still held back
    await m.waitFor(1)
  } finally {
    await m.close()
  }
})

it("does not send a callback for the non-final unknown status", async () => {
  const m = await startMerchant()
  try {
    const r = await call(sb.url, "SALE", saleFields("cb-11", { cvv2: "217", server_callback_url: `${m.url}/s` }))
    const orderid = String(r.body["paynet-order-id"])
    expect((await sb.control.waitForOutcome(orderid)).status).toBe("unknown")
    await new Promise((res) => setTimeout(res, 50))
    expect(m.received).toHaveLength(0)
    sb.control.forceStatus(orderid, "approved")
    expect((await m.waitFor(1))[0].query.status).toBe("approved")
  } finally {
    await m.close()
  }
})

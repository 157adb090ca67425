/**
 * Every gateway request as a span and a histogram point, through the client every server-side caller gets
 * (clientFromOptions), against the sandbox over real HTTP, recorded by an in-memory exporter: the tree (under the
 * current span; a retry a child; a settle step a parent), the attributes (operation, endpoint, outcome class from
 * reach.ts, gateway status, serial, ids), and what must never be in a span (card number, CVV, control key, e-mail).
 */
import { DEFAULT_SANDBOX_MERCHANT, startSandbox, type Sandbox } from "../../../sandbox"
import { clientFromOptions } from "../options"
import { gatewayTelemetry, settleSpan } from "../gateway-telemetry"
import { sendMoneyRequest } from "../money-request"
import { pollStatus } from "../gateway-ops"
import { inSpan } from "../../telemetry/otel"
import { METRIC } from "../../telemetry/metrics"
import { parentOf, points, recordTelemetry, spanText, type Recorder } from "../../telemetry/__tests__/recorder"
import type { PaynetEasyClient } from "../../../gateway"

const M = DEFAULT_SANDBOX_MERCHANT
const PAN = "4444555566661111"
const CVV = "123" // the sandbox approves it (a value no attribute may hold)
const EMAIL = "jane.telemetry@example.com"

const saleFields = (clientOrderId: string) => ({
  client_orderid: clientOrderId, order_desc: "telemetry", amount: "10.42", currency: "EUR", address1: "1 Main St",
  city: "Berlin", zip_code: "10115", country: "DE", phone: "+49301234567", email: EMAIL, ipaddress: "127.0.0.1",
  card_printed_name: "JANE TELEMETRY", credit_card_number: PAN, expire_month: "12", expire_year: "2099", cvv2: CVV,
  redirect_url: "http://127.0.0.1:9/return",
})

describe("gateway requests as spans and metrics (core/connection/gateway-telemetry.ts)", () => {
  let sandbox: Sandbox
  let client: PaynetEasyClient
  let rec: Recorder
  const options = () => ({ baseUrl: sandbox.url, endpointId: M.endpointIds[0], login: M.login, controlKey: M.controlKey, backendUrl: "http://127.0.0.1:9" })

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, processingMs: 0, logger: () => undefined })
  })
  afterAll(async () => {
    await sandbox.close()
  })
  beforeEach(() => {
    rec = recordTelemetry()
    client = clientFromOptions(options())
  })
  afterEach(async () => {
    await client.close()
    await rec.stop()
    sandbox.control.reset()
  })

  const named = (name: string) => rec.spans().filter((s) => s.name === name)

  it("a request is a CLIENT span under the current span: operation, endpoint, outcome, gateway status, serial, ids; no card data, secret or e-mail", async () => {
    let routeSpanId = ""
    const orderid = await inSpan("route handler: POST /store/test", {}, async (span) => {
      routeSpanId = span.spanContext().spanId
      const sale = await client.request("SALE", saleFields("payses_TEL1"))
      const id = String(sale["paynet-order-id"])
      await client.request("STATUS", { client_orderid: "payses_TEL1", orderid: id })
      return id
    })
    const [sale] = named("PaynetEasy SALE")
    const [status] = named("PaynetEasy STATUS")
    expect(sale.kind).toBe(2) // SpanKind.CLIENT
    expect(parentOf(sale)).toBe(routeSpanId)
    expect(parentOf(status)).toBe(routeSpanId)
    expect(sale.attributes).toMatchObject({
      "payneteasy.operation": "SALE",
      "payneteasy.moves_money": true,
      "payneteasy.endpoint": M.endpointIds[0],
      "payneteasy.outcome": "answered",
      "payneteasy.client_order_id": "payses_TEL1",
      "payneteasy.gateway_order_id": orderid,
      "payneteasy.attempts": 1,
      "http.request.method": "POST",
      "http.response.status_code": 200,
      "server.address": "127.0.0.1",
      "url.full": `${sandbox.url}/api/v2/sale/${M.endpointIds[0]}`,
    })
    expect(typeof sale.attributes["payneteasy.serial"]).toBe("string")
    expect(status.attributes).toMatchObject({ "payneteasy.operation": "STATUS", "payneteasy.moves_money": false, "payneteasy.gateway_status": "approved", "payneteasy.gateway_order_id": orderid })
    expect(status.status.code).not.toBe(2)

    const text = spanText(rec.spans())
    for (const forbidden of [PAN, M.controlKey, EMAIL, "JANE TELEMETRY", "+49301234567"]) expect(text).not.toContain(forbidden)
    for (const s of rec.spans()) {
      for (const [k, v] of Object.entries(s.attributes)) {
        expect(k).not.toMatch(/card|cvv|email|control|phone|amount/i)
        expect(v).not.toBe(CVV)
      }
    }
  })

  it("a read-only request retried after a 5xx: the retry is a child span, the first failure an event, the request answered", async () => {
    sandbox.control.addFault({ kind: "http-500", operation: "STATUS", times: 1 })
    const sale = await client.request("SALE", saleFields("payses_TEL2"))
    await client.request("STATUS", { client_orderid: "payses_TEL2", orderid: String(sale["paynet-order-id"]) })
    const [status] = named("PaynetEasy STATUS")
    const [retry] = named("PaynetEasy STATUS retry")
    expect(parentOf(retry)).toBe(status.spanContext().spanId)
    expect(retry.attributes["payneteasy.attempt"]).toBe(2)
    expect(status.attributes).toMatchObject({ "payneteasy.attempts": 2, "payneteasy.outcome": "answered", "payneteasy.gateway_status": "approved" })
    expect(status.events.map((e) => [e.name, e.attributes?.["error.type"], e.attributes?.["payneteasy.outcome"]])).toEqual([
      ["attempt failed", "GatewayServerError", "maybe-sent"],
    ])
  })

  it("outcome classes from reach.ts: a lost reply is maybe-sent, a refused connection not-sent, a refusal answered; failed spans say error.type", async () => {
    sandbox.control.addFault({ kind: "response-lost", operation: "SALE", times: 1 })
    await expect(client.request("SALE", saleFields("payses_TEL3"))).rejects.toThrow()
    await expect(client.request("STATUS", { client_orderid: "payses_NOSUCH" })).rejects.toThrow()
    const closed = clientFromOptions({ ...options(), baseUrl: "http://127.0.0.1:1/paynet" })
    await expect(closed.request("SALE", saleFields("payses_TEL4"))).rejects.toThrow()
    await closed.close()

    const [lost, refusedConnection] = named("PaynetEasy SALE")
    const [unknown] = named("PaynetEasy STATUS")
    expect(lost.attributes).toMatchObject({ "payneteasy.outcome": "maybe-sent", "error.type": "GatewayTransportError" })
    expect(lost.status.code).toBe(2) // ERROR
    expect(lost.status.message).toContain("may have reached the gateway")
    expect(refusedConnection.attributes).toMatchObject({ "payneteasy.outcome": "not-sent", "error.type": "GatewayTransportError" })
    expect(unknown.attributes).toMatchObject({ "payneteasy.outcome": "answered", "error.type": "GatewayValidationError" })
    expect(spanText(rec.spans())).not.toContain(PAN)

    const histogram = points(await rec.collect()).filter((p) => p.name === METRIC.gatewayDuration)
    const byLabels = Object.fromEntries(histogram.map((p) => [`${p.attributes["payneteasy.operation"]} ${p.attributes["payneteasy.outcome"]} ${p.attributes["error.type"] ?? ""}`.trim(), p.count]))
    expect(byLabels).toEqual({
      "SALE maybe-sent GatewayTransportError": 1,
      "SALE not-sent GatewayTransportError": 1,
      "STATUS answered GatewayValidationError": 1,
    })
  })

  it("counts every request in the duration histogram by operation and outcome, in seconds", async () => {
    const sale = await client.request("SALE", saleFields("payses_TEL5"))
    for (let i = 0; i < 3; i++) await client.request("STATUS", { client_orderid: "payses_TEL5", orderid: String(sale["paynet-order-id"]) })
    const histogram = points(await rec.collect()).filter((p) => p.name === METRIC.gatewayDuration)
    expect(histogram.map((p) => [p.attributes, p.count])).toEqual([
      [{ "payneteasy.operation": "SALE", "payneteasy.outcome": "answered" }, 1],
      [{ "payneteasy.operation": "STATUS", "payneteasy.outcome": "answered" }, 3],
    ])
    for (const p of histogram) expect(p.sum! / p.count!).toBeLessThan(10)
  })

  it("a settle step is a span whose STATUS requests are its children", async () => {
    const sale = await client.request("SALE", saleFields("payses_TEL6"))
    await settleSpan("lost reply", { operation: "CAPTURE", clientOrderId: "payses_TEL6" }, () =>
      client.request("STATUS", { client_orderid: "payses_TEL6", orderid: String(sale["paynet-order-id"]) }))
    const [settle] = named("PaynetEasy settle lost reply")
    const [status] = named("PaynetEasy STATUS")
    expect(settle.attributes).toMatchObject({ "payneteasy.settle.step": "lost reply", "payneteasy.operation": "CAPTURE", "payneteasy.client_order_id": "payses_TEL6" })
    expect(parentOf(status)).toBe(settle.spanContext().spanId)
  })

  it("the real settle paths are settle spans: a lost reply's STATUS asks under `settle lost reply`, a follow-up's polling under `settle poll`", async () => {
    // A SALE whose reply is lost, settled by STATUS (money-request.ts): the STATUS asks are the settle step's children.
    sandbox.control.addFault({ kind: "response-lost", operation: "SALE", times: 1 })
    const sent = await sendMoneyRequest(client, { op: "SALE", fields: saleFields("payses_TEL8"), status: { clientOrderId: "payses_TEL8" }, askAgainMs: [0] })
    expect(sent.kind).toBe("shown")
    const [lostSettle] = named("PaynetEasy settle lost reply")
    expect(lostSettle.attributes).toMatchObject({ "payneteasy.settle.step": "lost reply", "payneteasy.operation": "SALE", "payneteasy.client_order_id": "payses_TEL8" })
    const [lostSale] = named("PaynetEasy SALE")
    expect(parentOf(lostSettle)).toBe(parentOf(lostSale)) // beside the request it settles, under the same parent
    const underLost = named("PaynetEasy STATUS").filter((s) => parentOf(s) === lostSettle.spanContext().spanId)
    expect(underLost).toHaveLength(1)
    expect(lostSettle.attributes["payneteasy.settle.outcome"]).toBe("shown")

    // A STATUS poll to a final status (gateway-ops.ts pollStatus, what a follow-up settles with): its STATUS asks are children.
    const sale = await client.request("SALE", saleFields("payses_TEL9"))
    await pollStatus(client, { clientOrderId: "payses_TEL9", orderId: String(sale["paynet-order-id"]) }, () => true, [0])
    const [poll] = named("PaynetEasy settle poll")
    expect(poll.attributes).toMatchObject({ "payneteasy.settle.step": "poll", "payneteasy.client_order_id": "payses_TEL9", "payneteasy.gateway_order_id": String(sale["paynet-order-id"]) })
    expect(named("PaynetEasy STATUS").filter((s) => parentOf(s) === poll.spanContext().spanId)).toHaveLength(1)
  })

  it("with no SDK registered the observer has nothing to record: it answers undefined and the request goes as before", async () => {
    await rec.stop()
    const info = { operation: "STATUS", movesMoney: false, url: `${sandbox.url}/api/v2/status/1`, endpoint: "1" }
    expect(gatewayTelemetry.request(info)).toBeUndefined()
    const sale = await client.request("SALE", saleFields("payses_TEL7"))
    expect(sale["paynet-order-id"]).toBeDefined()
    rec = recordTelemetry() // for afterEach
    expect(rec.spans()).toEqual([])
  })
})

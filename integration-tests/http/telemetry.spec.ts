/**
 * Traces and metrics in the real app (issue 52), with the SDK registered the way a store registers it: the documented
 * instrumentation.ts (docs/examples/instrumentation.ts: Medusa's `registerOtel`, its HTTP and workflow
 * instrumentation, OTLP exporters) before the app boots, plus an in-memory exporter and a metric reader for the
 * assertions, and a stand-in OTLP collector on loopback for the exporters. So the parent spans are Medusa's own.
 *
 * Runs alone, not in an app group: the SDK and Medusa's instrumentation must be in place before the app loads its
 * routes (ApiLoader.traceRoute is read when a route is registered).
 */
import http from "node:http"
import type { AddressInfo } from "node:net"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { SimpleSpanProcessor, InMemorySpanExporter, type ReadableSpan } from "@medusajs/framework/opentelemetry/sdk-trace-node"
import { registerOtel } from "@medusajs/medusa"
import { payHostedPage } from "../../src/sandbox"
import { otelOptions } from "../../docs/examples/instrumentation"
import reconcileJob from "../../src/jobs/reconcile-payneteasy"
import { spanContextOfToken } from "../../src/core/telemetry/otel"
import { METRIC } from "../../src/core/telemetry/metrics"
import { CollectingReader, parentOf, points, spanText } from "../../src/core/telemetry/__tests__/recorder"
import { TEST_APP_DIR } from "../helpers/paths"
import { backendUrl } from "../helpers/backend-url"
import { PROVIDER_IDS, testProviderOptions } from "../helpers/provider-options"
import { useSandbox } from "../helpers/sandbox"
import { adminAndEurStore, checkoutToPaymentSession, type AdminAuth, type StoreFixture } from "../helpers/store"
import { callbackRows, onlyGatewayOrder, ordersForCart, paymentsForSession, waitFor } from "../helpers/inspect"

jest.setTimeout(240_000)

const CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Traced Shopper" }
const SHOPPER_EMAIL = "traced.shopper@payneteasy.test"

/** A stand-in OTLP/HTTP collector: what the documented exporters POST (JSON), by path. */
const collected: Record<string, unknown[]> = {}
const collector = http.createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on("data", (c) => chunks.push(c))
  req.on("end", () => {
    ;(collected[req.url ?? ""] ??= []).push(JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}"))
    res.writeHead(200, { "content-type": "application/json" })
    res.end("{}")
  })
})

const memory = new InMemorySpanExporter()
const reader = new CollectingReader()
let documented: ReturnType<typeof otelOptions>
let sdk: { shutdown: () => Promise<void> }

// Before the runner's boot (hooks run in the order they are declared): the collector, then the SDK.
beforeAll(async () => {
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve))
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`
  documented = otelOptions()
  sdk = registerOtel({
    ...documented,
    serviceName: "payneteasy-telemetry-spec",
    autoDetectResources: false,
    spanProcessors: [...documented.spanProcessors, new SimpleSpanProcessor(memory)],
    metricReaders: [...documented.metricReaders, reader],
  })
})
afterAll(async () => {
  await sdk?.shutdown()
  await new Promise((resolve) => collector.close(resolve))
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT
})

const sandbox = useSandbox()

const byId = (spans: ReadableSpan[]) => new Map(spans.map((s) => [s.spanContext().spanId, s]))
/** The names of a span's ancestors, nearest first. */
function ancestors(span: ReadableSpan, spans: ReadableSpan[]): string[] {
  const index = byId(spans)
  const out: string[] = []
  for (let p = parentOf(span) && index.get(parentOf(span)!); p; p = parentOf(p) ? index.get(parentOf(p)!) : undefined) out.push(p.name)
  return out
}
const isUnder = (span: ReadableSpan, ancestor: ReadableSpan, spans: ReadableSpan[]) => {
  const index = byId(spans)
  for (let p = parentOf(span) ? index.get(parentOf(span)!) : undefined; p; p = parentOf(p) ? index.get(parentOf(p)!) : undefined) {
    if (p === ancestor) return true
  }
  return false
}
const finished = () => memory.getFinishedSpans()
const waitForSpan = (what: string, match: (s: ReadableSpan) => boolean) => waitFor(what, async () => finished().find(match))

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let admin: AdminAuth
    let eur: StoreFixture
    const infoLines: string[] = []
    let checkout: { sessionId: string; paymentId: string; orderId: string; gatewayOrderId: string } | undefined

    beforeAll(async () => {
      ;({ admin, eur } = await adminAndEurStore(api, getContainer()))
      const logger = getContainer().resolve("logger") as { info: (m: string) => void }
      const info = logger.info.bind(logger)
      jest.spyOn(logger, "info").mockImplementation((m: string) => {
        infoLines.push(String(m))
        return info(m)
      })
    })

    it("a checkout, its callback and an admin capture: gateway spans under Medusa's route and step spans, the callback's processing linked to the checkout; nothing secret in any span", async () => {
      const container = getContainer()
      memory.reset()

      // 1. The store route that creates the payment session registers the hosted page: PREAUTHFORM.
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted, { email: SHOPPER_EMAIL })
      const form = await waitForSpan("the PREAUTHFORM span", (s) => s.name === "PaynetEasy PREAUTHFORM" && s.attributes["payneteasy.client_order_id"] === session.id)
      const formAncestors = ancestors(form, finished())
      // Medusa's route handler span (under its middleware spans), its workflow and step spans, then ours
      expect(formAncestors).toContain("route handler: /store/payment-collections/:id/payment-sessions")
      expect(formAncestors.some((n) => /^step:/.test(n))).toBe(true)
      expect(formAncestors.some((n) => /^workflow:/.test(n))).toBe(true)
      expect(form.attributes).toMatchObject({ "payneteasy.operation": "PREAUTHFORM", "payneteasy.moves_money": true, "payneteasy.outcome": "answered", "http.response.status_code": 200 })
      expect(form.attributes["payneteasy.gateway_order_id"]).toBe(onlyGatewayOrder(sandbox(), session.id).orderid)

      // The registered callback URL carries the creating request's trace context (a span of the checkout's trace).
      const callbackUrl = new URL(onlyGatewayOrder(sandbox(), session.id).urls.serverCallback!)
      const creator = spanContextOfToken(callbackUrl.searchParams.get("pne_trace"))
      expect(creator?.traceId).toBe(form.spanContext().traceId)

      // 2. Paid on the hosted page: the callback's processing runs later, in a trace of its own, linked to the checkout.
      await payHostedPage(session.data.redirectUrl, CARD)
      const processing = await waitForSpan("the callback's processing span", (s) =>
        s.name === "PaynetEasy callback process" && s.attributes["payneteasy.client_order_id"] === session.id && s.attributes["payneteasy.callback.type"] === "preauth")
      expect(processing.attributes).toMatchObject({ "payneteasy.callback.outcome": "processed", "payneteasy.callback.status": "approved", "payneteasy.payment_session_id": session.id })
      expect(processing.spanContext().traceId).not.toBe(form.spanContext().traceId)
      expect(processing.links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([[creator!.traceId, creator!.spanId]])
      const [subscriber] = ancestors(processing, finished()).slice(-1)
      expect(subscriber).toBe("process payneteasy.callback.received")
      const spansNow = finished()
      const root = spansNow.find((s) => s.spanContext().spanId === parentOf(processing))!
      expect(parentOf(root)).toBeUndefined()
      const status = spansNow.filter((s) => s.name === "PaynetEasy STATUS" && isUnder(s, processing, spansNow))
      expect(status.length).toBeGreaterThan(0)
      expect(status[0].attributes).toMatchObject({ "payneteasy.gateway_status": "approved", "payneteasy.client_order_id": session.id })
      expect(ancestors(status[0], spansNow).some((n) => /^step:payneteasy.settle.callback.session/.test(n))).toBe(true)
      const [row] = await callbackRows(container, { client_orderid: session.id, source: "callback", type: "preauth" })
      expect(processing.attributes["payneteasy.callback.id"]).toBe(row.id)

      // 3. An admin capture: the admin route → Medusa's capture workflow step → CAPTURE.
      const [payment] = await waitFor("the payment", async () => {
        const p = await paymentsForSession(container, session.id)
        return p.length ? p : false
      })
      await api.post(`/admin/payments/${payment.id}/capture`, {}, admin)
      const capture = await waitForSpan("the CAPTURE span", (s) => s.name === "PaynetEasy CAPTURE" && s.attributes["payneteasy.client_order_id"] === session.id)
      const captureAncestors = ancestors(capture, finished())
      expect(captureAncestors).toContain("route handler: /admin/payments/:id/capture")
      expect(captureAncestors.some((n) => /^step:/.test(n))).toBe(true)
      expect(capture.attributes["payneteasy.outcome"]).toBe("answered")
      const [orderId] = await waitFor("the order", async () => ((await ordersForCart(container, cart.id)) as string[]).length ? ordersForCart(container, cart.id) : false)
      checkout = { sessionId: session.id, paymentId: payment.id, orderId, gatewayOrderId: String(form.attributes["payneteasy.gateway_order_id"]) }

      // 4. Scrubbing, over every span of the run (Medusa's and the plugin's): no card data, no secret, no e-mail.
      const text = spanText(finished())
      const options = testProviderOptions("payneteasy")
      for (const forbidden of [CARD.number, options.controlKey, SHOPPER_EMAIL, admin.token, CARD.holder]) expect(text).not.toContain(forbidden)
      for (const s of finished().filter((s) => s.instrumentationScope.name === "medusa-payment-payneteasy")) {
        for (const [k, v] of Object.entries(s.attributes)) {
          expect(k).not.toMatch(/card|cvv|email|control|phone|amount/i)
          expect(v).not.toBe(CARD.cvv2)
        }
      }
    })

    it("logs: one info line per money movement (the order's authorization, the capture), each with every id of the payment", async () => {
      const c = checkout!
      const ids = `[payment_session=${c.sessionId} payment=${c.paymentId} order=${c.orderId} gateway_order=${c.gatewayOrderId} client_order=${c.sessionId}`
      const movements = await waitFor("the movement lines", async () => {
        const lines = infoLines.filter((l) => l.startsWith("PaynetEasy:") && l.includes(c.paymentId))
        return lines.length >= 2 ? lines : false
      })
      expect(movements).toEqual([
        expect.stringMatching(/^PaynetEasy: order placed, payment authorized \(preauth\) 10\.42 EUR \(gateway approved\) \[/),
        expect.stringMatching(/^PaynetEasy: captured 10\.42 EUR \(gateway approved, capt_\w+\) \[/),
      ])
      for (const line of movements) expect(line).toContain(ids)
      // grep of the gateway order id tells the same story as grep of the session id
      const by = (id: string) => infoLines.filter((l) => l.includes(id))
      expect(by(c.gatewayOrderId)).toEqual(by(c.sessionId))
      expect(infoLines.join("\n")).not.toContain(CARD.number)
    })

    it("metrics: gateway requests by operation and outcome, callbacks received and processed, reconciliation, the attention queue", async () => {
      await reconcileJob(getContainer()) // a tick: its report counted, the attention gauge registered
      const all = points((await reader.collect()).resourceMetrics)
      const gateway = all.filter((p) => p.name === METRIC.gatewayDuration)
      const count = (op: string) => gateway.filter((p) => p.attributes["payneteasy.operation"] === op && p.attributes["payneteasy.outcome"] === "answered").reduce((n, p) => n + (p.count ?? 0), 0)
      expect(count("PREAUTHFORM")).toBeGreaterThanOrEqual(1)
      expect(count("STATUS")).toBeGreaterThanOrEqual(1)
      expect(count("CAPTURE")).toBeGreaterThanOrEqual(1)
      const value = (name: string, key: string, v: string) => all.find((p) => p.name === name && p.attributes[key] === v)?.value ?? 0
      expect(value(METRIC.callbackReceived, "payneteasy.callback.verdict", "verified")).toBeGreaterThanOrEqual(1)
      expect(value(METRIC.callbackProcessed, "payneteasy.callback.outcome", "processed")).toBeGreaterThanOrEqual(1)
      const attention = all.filter((p) => p.name === METRIC.attentionItems)
      expect(attention.map((p) => p.attributes["payneteasy.attention.kind"])).toEqual(expect.arrayContaining(["paid_without_order", "callback_failed"]))
      expect(attention.every((p) => typeof p.value === "number")).toBe(true)

      // A forged callback is counted as refused.
      const forged = await fetch(`${backendUrl()}/payneteasy/callback?status=approved&orderid=1&client_orderid=payses_X&type=sale&control=00`).catch(() => undefined)
      expect(forged?.status).toBe(403)
      const after = points((await reader.collect()).resourceMetrics)
      expect(after.find((p) => p.name === METRIC.callbackReceived && p.attributes["payneteasy.callback.refusal"] === "forged")?.value).toBe(1)
    })

    it("a scheduled reconciliation tick: its STATUS is under Medusa's job workflow, the reconciliation workflow and its settle step", async () => {
      // A hosted page registered and not paid: the reconciliation's watch on its session is due within seconds, and
      // the app's own scheduler (Medusa runs a job as the workflow `job-<name>`) asks STATUS for it.
      const { session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted, { email: SHOPPER_EMAIL })
      const isTick = (s: ReadableSpan) => ancestors(s, finished()).some((n) => /^workflow:job.payneteasy.reconcile$/.test(n))
      const status = await waitForSpan("a STATUS of the scheduled tick", (s) =>
        s.name === "PaynetEasy STATUS" && s.attributes["payneteasy.client_order_id"] === session.id && isTick(s))
      const chain = ancestors(status, finished())
      expect(chain[0]).toBe("step:payneteasy-settle-watched-session:invoke")
      expect(chain).toContain("workflow:payneteasy-reconcile-session")
      expect(status.attributes["payneteasy.outcome"]).toBe("answered")
    })

    it("the documented instrumentation.ts exports the plugin's spans and metrics to the collector over OTLP/HTTP", async () => {
      await Promise.all([...documented.spanProcessors.map((p) => p.forceFlush()), ...documented.metricReaders.map((r) => r.forceFlush())])
      const spanNames = JSON.stringify(collected["/v1/traces"] ?? [])
      expect(spanNames).toContain("PaynetEasy PREAUTHFORM")
      expect(spanNames).toContain("PaynetEasy callback process")
      expect(spanNames).not.toContain(CARD.number)
      expect(JSON.stringify(collected["/v1/metrics"] ?? [])).toContain(METRIC.gatewayDuration)
    })
  },
})

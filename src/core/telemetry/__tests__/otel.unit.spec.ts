/**
 * The plugin's OpenTelemetry helpers with an in-memory exporter: spans in the current context, a subscriber's root
 * span with the emitter linked, the trace context that travels in the callback URL (core/checkout/callback-owner.ts)
 * and comes back as the processing span's link (core/callbacks/processing-telemetry.ts), and the text scrubbing.
 */
import { ownedCallbackUrl, TRACE_PARAM } from "../../checkout/callback-owner"
import { creatorLink, observeCallbackProcessing } from "../../callbacks/processing-telemetry"
import { telemetryText } from "../../../gateway/observe"
import { inSpan, spanContextOfToken, subscriberSpan, traceToken } from "../otel"
import { METRIC } from "../metrics"
import { parentOf, points, recordTelemetry, type Recorder } from "./recorder"

const row = (params: Record<string, unknown>) => ({
  id: "pnecb_1", source: "callback" as const, type: "sale", status: "approved", orderid: "902133", client_orderid: "payses_01",
  session_id: "payses_01", params,
})

describe("with no OpenTelemetry SDK registered", () => {
  it("inSpan runs its function as it is, nothing is traced and the callback URL is as it always was", async () => {
    await expect(inSpan("x", {}, async (span) => span.isRecording())).resolves.toBe(false)
    expect(traceToken()).toBeUndefined()
    expect(ownedCallbackUrl("https://shop.test/payneteasy/callback", "KEY", "payses_01")).not.toContain(TRACE_PARAM)
  })
})

describe("with an SDK registered", () => {
  let rec: Recorder
  beforeEach(() => {
    rec = recordTelemetry()
  })
  afterEach(async () => {
    await rec.stop()
  })
  const named = (name: string) => rec.spans().find((s) => s.name === name)!

  it("inSpan makes its span current: a span started inside is its child; an error marks it failed, scrubbed, and is rethrown", async () => {
    await inSpan("outer", {}, () => inSpan("inner", {}, async () => undefined))
    expect(parentOf(named("inner"))).toBe(named("outer").spanContext().spanId)
    const failure = new Error("card 4444555566661111 of jane@example.com refused")
    await expect(inSpan("failing", {}, async () => { throw failure })).rejects.toBe(failure)
    const failed = named("failing")
    expect(failed.status).toEqual({ code: 2, message: "card 444455******1111 of [email] refused" })
    expect(failed.attributes["error.type"]).toBe("Error")
  })

  it("the callback URL carries the current span's context; it decodes to the same span; the processing span links to it", async () => {
    let url = ""
    let creator = { traceId: "", spanId: "" }
    await inSpan("route handler: POST /store/payment-collections/:id/payment-sessions", {}, async (span) => {
      creator = span.spanContext()
      url = ownedCallbackUrl("https://shop.test/payneteasy/callback", "KEY", "payses_01")
    })
    const token = new URL(url).searchParams.get(TRACE_PARAM)
    expect(token).toMatch(/^[A-Za-z0-9_-]{34}$/)
    expect(new URL(url).searchParams.get("pne_owner")).toBeTruthy()
    expect(spanContextOfToken(token)).toMatchObject({ traceId: creator.traceId, spanId: creator.spanId, isRemote: true })

    const done = await subscriberSpan("payneteasy.callback.received", () =>
      observeCallbackProcessing(row({ [TRACE_PARAM]: token, pne_owner: "x" }), async () => ({ outcome: "processed" })))
    expect(done).toEqual({ outcome: "processed" })
    const processing = named("PaynetEasy callback process")
    const subscriber = named("process payneteasy.callback.received")
    expect(parentOf(processing)).toBe(subscriber.spanContext().spanId)
    expect(parentOf(subscriber)).toBeUndefined()
    expect(processing.spanContext().traceId).not.toBe(creator.traceId)
    expect(processing.links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([[creator.traceId, creator.spanId]])
    expect(processing.attributes).toMatchObject({
      "payneteasy.callback.id": "pnecb_1", "payneteasy.callback.outcome": "processed", "payneteasy.client_order_id": "payses_01",
      "payneteasy.gateway_order_id": "902133", "payneteasy.payment_session_id": "payses_01",
    })
    const counted = points(await rec.collect()).filter((p) => p.name === METRIC.callbackProcessed || p.name === METRIC.callbackProcessingDuration)
    expect(counted.map((p) => [p.name, p.attributes["payneteasy.callback.outcome"], p.value ?? p.count])).toEqual([
      [METRIC.callbackProcessed, "processed", 1],
      [METRIC.callbackProcessingDuration, "processed", 1],
    ])
  })

  it("a subscriber's span is a root that links the context the emit ran in", async () => {
    let emitter = ""
    await inSpan("workflow:complete_cart", {}, async (span) => {
      emitter = span.spanContext().spanId
      await subscriberSpan("order.placed", async () => undefined)
    })
    const subscriber = named("process order.placed")
    expect(parentOf(subscriber)).toBeUndefined()
    expect(subscriber.links.map((l) => l.context.spanId)).toEqual([emitter])
    expect(subscriber.attributes).toMatchObject({ "messaging.destination.name": "order.placed", "messaging.operation.type": "process" })
  })

  it("a failed processing is counted failed and its span says so; a row without a trace context gets no link", async () => {
    await expect(observeCallbackProcessing(row({}), async () => { throw new Error("boom") })).rejects.toThrow("boom")
    const span = named("PaynetEasy callback process")
    expect(span.links).toEqual([])
    expect(span.attributes["payneteasy.callback.outcome"]).toBe("failed")
    expect(span.status.code).toBe(2)
    expect(creatorLink({ params: { [TRACE_PARAM]: "not a token" } })).toBeUndefined()
    expect(creatorLink({ params: null as never })).toBeUndefined()
  })
})

describe("telemetryText", () => {
  it("masks card numbers, secrets and e-mail addresses, and keeps it short", () => {
    expect(telemetryText("control=abc123 for jane.doe+x@mail.example.com card 4444 5555 6666 1111 KEY-XYZ", ["KEY-XYZ"]))
      .toBe("control=[redacted] for [email] card 444455******1111 [redacted]")
    expect(telemetryText("x".repeat(500))).toHaveLength(300)
  })
})

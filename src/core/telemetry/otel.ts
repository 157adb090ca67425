/**
 * The plugin's one way to OpenTelemetry: its tracer (Medusa's `Tracer` from `@medusajs/framework/telemetry`) and its
 * meter, both over the OpenTelemetry API Medusa itself ships (`@medusajs/framework/opentelemetry/api`), so the store's
 * `instrumentation.ts` (`registerOtel`, docs/production.md) drives Medusa's spans and ours through one API instance and
 * ours sit under Medusa's route, workflow and step spans.
 *
 * Why here, and lazily: the store registers its SDK before the app loads, but tests and the bench register and
 * drop providers at will, and a meter taken from the API before any SDK is registered stays a no-op for good. So the
 * tracer and the meter are taken again whenever the registered provider changes (one lookup of the global per use).
 * With no SDK registered every helper here returns at once: `inSpan` runs its function as it is, `meter()` says
 * there is none, and `traceToken()` has nothing to pass on ("off costs nothing", bench "gateway call, tracing off").
 *
 * Nothing here puts a value in an attribute on its own: callers name what they record, and text goes through
 * `telemetryText` (src/gateway/observe.ts: no secret, card number or e-mail).
 */
import { Tracer as MedusaTracer } from "@medusajs/framework/telemetry"
import {
  context,
  createNoopMeter,
  isSpanContextValid,
  metrics,
  trace,
  TraceFlags,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Link,
  type Meter,
  type Span,
  type SpanContext,
  type Tracer,
} from "@medusajs/framework/opentelemetry/api"
import { telemetryText } from "../../gateway/observe"

/** The instrumentation scope of every span and metric the plugin records. */
export const INSTRUMENTATION_SCOPE = "medusa-payment-payneteasy"

let tracerOf: { provider: unknown; tracer: Tracer } | undefined

/** The plugin's tracer under the registered tracer provider (a no-op one when no SDK is registered). */
export function tracer(): Tracer {
  const provider = trace.getTracerProvider()
  if (tracerOf?.provider !== provider) tracerOf = { provider, tracer: new MedusaTracer(INSTRUMENTATION_SCOPE).getOTTracer() }
  return tracerOf.tracer
}

let meterOf: { provider: unknown; meter: Meter | undefined } | undefined

/** The plugin's meter, or undefined when no meter provider is registered (every instrument would be a no-op). */
export function meter(): Meter | undefined {
  const provider = metrics.getMeterProvider()
  if (meterOf?.provider !== provider) {
    const m = provider.getMeter(INSTRUMENTATION_SCOPE)
    meterOf = { provider, meter: m === createNoopMeter() ? undefined : m }
  }
  return meterOf.meter
}


export type SpanOptions = { attributes?: Attributes; links?: Link[]; kind?: SpanKind; root?: boolean }

/** The name of an error's class, for `error.type` (low cardinality: never the message). */
export function errorType(error: unknown): string {
  if (error instanceof Error) return error.constructor?.name || error.name || "Error"
  return typeof error
}

/** Marks a span failed: `error.type` and a status whose message is scrubbed (telemetryText). */
export function markFailed(span: Span, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error)
  span.setAttribute("error.type", errorType(error))
  span.setStatus({ code: SpanStatusCode.ERROR, message: telemetryText(message) })
}

/**
 * Runs `fn` in a span of the plugin's tracer, current inside `fn` (so gateway requests made there are its children)
 * and ended when `fn` settles; an error marks it failed (markFailed) and is rethrown. `root` starts a new trace (a
 * subscriber: what triggered it is linked, not a parent). With no SDK registered `fn` runs as it is.
 */
export async function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  const span = tracer().startSpan(name, options)
  if (!isSpanContextValid(span.spanContext())) return fn(span)
  try {
    return await context.with(trace.setSpan(context.active(), span), () => fn(span))
  } catch (error) {
    if (span.isRecording()) markFailed(span, error)
    throw error
  } finally {
    span.end()
  }
}

/**
 * A subscriber's handling of an event (`process <event>`, a CONSUMER span). Medusa does not trace subscribers, and on
 * its Redis event bus nothing of the emitter's context arrives, so this is the root of a trace of its own; when the
 * emit ran in a traced context (the local event bus keeps it) that span is linked, not made the parent: a gathered
 * emit carries the work of many requests. What the handler sends to the gateway is under this span.
 */
export function subscriberSpan<T>(event: string, fn: () => Promise<T>): Promise<T> {
  const emitted = trace.getSpanContext(context.active())
  const links = emitted && isSpanContextValid(emitted) ? [{ context: emitted, attributes: { "payneteasy.link": "emitted by" } }] : undefined
  const attributes = { "messaging.operation.type": "process", "messaging.destination.name": event }
  return inSpan(`process ${event}`, { root: true, kind: SpanKind.CONSUMER, links, attributes }, () => fn())
}

/** Sets attributes on the current span (Medusa's route or step span, or ours), when one is recording. */
export function annotateCurrentSpan(attributes: Attributes): void {
  const span = trace.getActiveSpan()
  if (span?.isRecording()) span.setAttributes(attributes)
}

/**
 * The current span's context as a short URL-safe token (base64url of trace id, span id and flags: 34 characters),
 * for a trace context that must travel through the gateway (the callback URL's `pne_trace`, core/checkout/
 * callback-owner.ts). Base64url, not the W3C `traceparent` text: the callback log scrubs digit runs that look like
 * card numbers (src/gateway/scrub.ts), and a hex trace id has one often enough to lose the link. Undefined when
 * nothing is being traced (no SDK, or the span is not sampled).
 */
export function traceToken(): string | undefined {
  const sc = trace.getSpanContext(context.active())
  if (!sc || !isSpanContextValid(sc) || (sc.traceFlags & TraceFlags.SAMPLED) === 0) return undefined
  return Buffer.from(`${sc.traceId}${sc.spanId}${sc.traceFlags.toString(16).padStart(2, "0")}`, "hex").toString("base64url")
}

const TOKEN = /^[A-Za-z0-9_-]{34}$/

/** The span context a `traceToken` names, or undefined for anything else. */
export function spanContextOfToken(token: unknown): SpanContext | undefined {
  if (typeof token !== "string" || !TOKEN.test(token)) return undefined
  const hex = Buffer.from(token, "base64url").toString("hex")
  if (hex.length !== 50) return undefined
  const sc: SpanContext = { traceId: hex.slice(0, 32), spanId: hex.slice(32, 48), traceFlags: parseInt(hex.slice(48), 16), isRemote: true }
  return isSpanContextValid(sc) ? sc : undefined
}

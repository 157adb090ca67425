/**
 * Every metric the plugin records, in one table: its name, unit, what it counts and its attributes (docs/production.md
 * "Metrics" lists the same). Names follow OpenTelemetry's semantic conventions where one applies (`*.duration` in
 * seconds as a histogram, `error.type`, `{unit}` annotations, no `_total`, dot-separated namespaces), the rest sit
 * under `payneteasy.`. The gateway's request histogram is not `http.client.request.duration`: it measures one
 * logical request with its retries, and undici's own instrumentation, if a store turns it on, already reports each
 * HTTP attempt under that name.
 *
 * Instruments are made from the registered meter provider on first use and again if it changes (otel.ts); with no
 * meter provider registered `instruments()` is undefined and every `record…` below returns at once.
 */
import type { Attributes, Counter, Meter, ObservableGauge } from "@medusajs/framework/opentelemetry/api"
import { meter } from "./otel"

/** Bucket bounds (s) for request and processing durations: OpenTelemetry's HTTP defaults, to 30 s (the gateway's timeout). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30]

export const METRIC = {
  gatewayDuration: "payneteasy.gateway.request.duration",
  callbackReceived: "payneteasy.callback.received",
  callbackProcessed: "payneteasy.callback.processed",
  callbackProcessingDuration: "payneteasy.callback.processing.duration",
  reconciliationDue: "payneteasy.reconciliation.due",
  reconciliationSettled: "payneteasy.reconciliation.settled",
  reconciliationFlagged: "payneteasy.reconciliation.flagged",
  reconciliationFailed: "payneteasy.reconciliation.failed",
  attentionItems: "payneteasy.attention.items",
} as const

function make(m: Meter) {
  const seconds = (name: string, description: string) =>
    m.createHistogram(name, { unit: "s", description, advice: { explicitBucketBoundaries: DURATION_BUCKETS } })
  const counter = (name: string, unit: string, description: string) => m.createCounter(name, { unit, description })
  return {
    meter: m,
    gatewayDuration: seconds(METRIC.gatewayDuration,
      "PaynetEasy API requests (retries of a read-only request included), by operation and outcome (answered, not-sent, maybe-sent); its count is the number of requests"),
    callbackReceived: counter(METRIC.callbackReceived, "{callback}",
      "Gateway callbacks at the callback route, by verdict: verified (recorded), duplicate (recorded before), refused (malformed, forged or unknown order)"),
    callbackProcessed: counter(METRIC.callbackProcessed, "{callback}",
      "Recorded callbacks processed, by outcome: processed, ignored, flagged (a person must act), failed (retried by the reconciliation tick)"),
    callbackProcessingDuration: seconds(METRIC.callbackProcessingDuration,
      "Processing of one recorded callback (lock, STATUS, Medusa's payment and order), by outcome"),
    reconciliationDue: counter(METRIC.reconciliationDue, "{check}",
      "Watched payments, payouts or recurring charges whose next gateway check had come and that a reconciliation tick checked"),
    reconciliationSettled: counter(METRIC.reconciliationSettled, "{check}", "Reconciliation checks that found the gateway's final answer and closed the watch"),
    reconciliationFlagged: counter(METRIC.reconciliationFlagged, "{check}", "Reconciliation checks that gave up and flagged the payment for a person (the attention queue)"),
    reconciliationFailed: counter(METRIC.reconciliationFailed, "{check}", "Reconciliation checks that failed (tried again at the next tick)"),
  }
}

export type Instruments = ReturnType<typeof make>

let made: { meter: Meter; instruments: Instruments } | undefined

/** The instruments under the registered meter provider, or undefined when none is registered. */
export function instruments(): Instruments | undefined {
  const m = meter()
  if (!m) return undefined
  if (made?.meter !== m) made = { meter: m, instruments: make(m) }
  return made.instruments
}

const add = (counter: (i: Instruments) => Counter, value: number, attributes: Attributes) => {
  const i = instruments()
  if (i && value > 0) counter(i).add(value, attributes)
}

/** Callback route verdicts. `reason` names a refusal: malformed, forged, unknown_order. */
export type CallbackVerdict = "verified" | "duplicate" | "refused"

export function recordCallbackReceived(verdict: CallbackVerdict, reason?: "malformed" | "forged" | "unknown_order"): void {
  add((i) => i.callbackReceived, 1, reason ? { "payneteasy.callback.verdict": verdict, "payneteasy.callback.refusal": reason } : { "payneteasy.callback.verdict": verdict })
}

export function recordCallbackProcessed(outcome: string, seconds: number): void {
  const i = instruments()
  if (!i) return
  const attributes = { "payneteasy.callback.outcome": outcome }
  i.callbackProcessed.add(1, attributes)
  i.callbackProcessingDuration.record(seconds, attributes)
}

/** What one reconciliation tick did (`kind`: payment, payout, recurring). */
export function recordReconciliation(kind: "payment" | "payout" | "recurring", r: { due: number; settled: number; flagged: number; failed: number }): void {
  const attributes = { "payneteasy.reconciliation.kind": kind }
  add((i) => i.reconciliationDue, r.due, attributes)
  add((i) => i.reconciliationSettled, r.settled, attributes)
  add((i) => i.reconciliationFlagged, r.flagged, attributes)
  add((i) => i.reconciliationFailed, r.failed, attributes)
}

const gauges = new WeakMap<Meter, ObservableGauge>()

/**
 * The attention queue's size (items not marked handled, by kind) as an observable gauge: `count` is asked when the
 * SDK's metric reader collects (every export interval), never otherwise. Registered once per meter; the first caller's
 * `count` is kept (the reconciliation job registers it, with the app's container).
 */
export function observeAttentionQueue(count: () => Promise<Map<string, number>>): void {
  const m = meter()
  if (!m || gauges.has(m)) return
  const gauge = m.createObservableGauge(METRIC.attentionItems, {
    unit: "{item}",
    description: "Attention queue items not marked handled (what a person must act on), by kind",
  })
  gauge.addCallback(async (result) => {
    try {
      for (const [kind, n] of await count()) result.observe(n, { "payneteasy.attention.kind": kind })
    } catch {
      // a failed read reports nothing this time; the next collection asks again
    }
  })
  gauges.set(m, gauge)
}


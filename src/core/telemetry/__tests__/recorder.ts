/**
 * An OpenTelemetry SDK for tests: spans into an in-memory exporter, metrics into a reader collected on demand, the
 * async-hooks context manager (what NodeSDK registers), all registered globally until `stop()`. Shared by the unit
 * specs and the integration spec (which registers Medusa's own `registerOtel` instead, and reads through the same
 * `summarize` helpers).
 */
import { context, metrics, trace } from "@medusajs/framework/opentelemetry/api"
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks"
import { AggregationTemporality, MeterProvider, MetricReader, type ResourceMetrics } from "@opentelemetry/sdk-metrics"
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base"

/** A metric reader collected by the test itself (cumulative, the default). */
export class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE })
  }
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

export type Recorder = {
  spans: () => ReadableSpan[]
  collect: () => Promise<ResourceMetrics>
  reset: () => void
  stop: () => Promise<void>
}

export function recordTelemetry(): Recorder {
  const exporter = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const contextManager = new AsyncLocalStorageContextManager().enable()
  context.setGlobalContextManager(contextManager)
  trace.setGlobalTracerProvider(tracerProvider)
  const reader = new CollectingReader()
  const meterProvider = new MeterProvider({ readers: [reader] })
  metrics.setGlobalMeterProvider(meterProvider)
  return {
    spans: () => exporter.getFinishedSpans(),
    collect: async () => (await reader.collect()).resourceMetrics,
    reset: () => exporter.reset(),
    stop: async () => {
      await tracerProvider.shutdown()
      await meterProvider.shutdown()
      trace.disable()
      metrics.disable()
      context.disable()
    },
  }
}

/** One data point of a metric, flattened: its attributes and its value (a sum, or a histogram's count and sum). */
export type Point = { name: string; attributes: Record<string, unknown>; value?: number; count?: number; sum?: number }

export function points(rm: ResourceMetrics, scope = "medusa-payment-payneteasy"): Point[] {
  const out: Point[] = []
  for (const sm of rm.scopeMetrics) {
    if (sm.scope.name !== scope) continue
    for (const m of sm.metrics) {
      for (const dp of m.dataPoints as Array<{ attributes: Record<string, unknown>; value: unknown }>) {
        const v = dp.value as number | { count: number; sum?: number }
        out.push(typeof v === "number"
          ? { name: m.descriptor.name, attributes: dp.attributes, value: v }
          : { name: m.descriptor.name, attributes: dp.attributes, count: v.count, sum: v.sum })
      }
    }
  }
  return out
}

/** Everything a span says, as text (name, attributes, events, status, links), to search for what must not be there. */
export function spanText(spans: ReadableSpan[]): string {
  return JSON.stringify(spans.map((s) => ({
    name: s.name,
    attributes: s.attributes,
    events: s.events.map((e) => ({ name: e.name, attributes: e.attributes })),
    status: s.status,
    links: s.links.map((l) => l.attributes ?? {}),
  })))
}

export const parentOf = (s: ReadableSpan): string | undefined => s.parentSpanContext?.spanId

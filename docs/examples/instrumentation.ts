// instrumentation.ts, in the store's root next to medusa-config.ts: `medusa start` (and `medusa develop`) call its
// register() before the app loads. Traces and metrics go to an OpenTelemetry collector over OTLP/HTTP
// (OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318). docs/production.md "Traces, metrics and logs" explains
// every span and metric; integration-tests/http/telemetry.spec.ts runs this file against a real app and a collector.
//
//   npm install @opentelemetry/exporter-trace-otlp-http@0.220.0 @opentelemetry/exporter-metrics-otlp-http@0.220.0 \
//     @opentelemetry/sdk-metrics@2.9.0
//   (the versions Medusa 2.21's own OpenTelemetry SDK uses, so one API instance is shared)
import { registerOtel } from "@medusajs/medusa"
import { BatchSpanProcessor, type ReadableSpan, type Span, type SpanProcessor } from "@medusajs/framework/opentelemetry/sdk-trace-node"
import type { Context } from "@medusajs/framework/opentelemetry/api"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http"
import { PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics"

/**
 * Medusa's HTTP span copies every request header into its attributes (`instrument.http`): the admin's bearer token,
 * the session cookie and the publishable key would reach the collector. This processor drops them before export.
 */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "set-cookie", "x-publishable-api-key", "proxy-authorization"]

export class WithoutCredentials implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}
  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext)
  }
  onEnd(span: ReadableSpan): void {
    const attributes = span.attributes as Record<string, unknown>
    for (const header of CREDENTIAL_HEADERS) delete attributes[header]
    this.next.onEnd(span)
  }
  forceFlush(): Promise<void> {
    return this.next.forceFlush()
  }
  shutdown(): Promise<void> {
    return this.next.shutdown()
  }
}

export function otelOptions() {
  return {
    serviceName: process.env.OTEL_SERVICE_NAME ?? "medusa-store",
    // Medusa's own spans: HTTP requests, route handlers and middlewares, workflows and their steps (scheduled jobs
    // run as workflows). The PaynetEasy plugin's spans sit under them by themselves.
    instrument: { http: true, workflows: true, query: false, db: false },
    // Batches, where registerOtel's default sends every span in a request of its own.
    spanProcessors: [new WithoutCredentials(new BatchSpanProcessor(new OTLPTraceExporter()))],
    metricReaders: [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: 30_000 })],
    // Medusa's logs stay on stdout (logs: see docs/production.md); without this the SDK also starts an OTLP log exporter.
    logRecordProcessors: [],
  }
}

export function register() {
  return registerOtel(otelOptions())
}

/**
 * `npm run demo -- --trace`: Medusa's OpenTelemetry (registerOtel: HTTP and workflow spans) with this plugin's spans
 * and a console exporter, so a newcomer sees what a checkout does at the gateway. Every trace that holds a PaynetEasy
 * span is printed as a tree when its root ends: each span's name, duration and the plugin's attributes; Medusa's
 * middleware spans are left out (their children are shown under the span above them). Production set-up, with a
 * collector: docs/production.md "Traces, metrics and logs".
 * Registered before the app loads (index.ts requires this file first), as a store's instrumentation.ts is.
 */
import { registerOtel } from "@medusajs/medusa"
import type { ReadableSpan, SpanExporter } from "@medusajs/framework/opentelemetry/sdk-trace-node"

const SCOPE = "medusa-payment-payneteasy"
const ms = (s: ReadableSpan) => (s.duration[0] * 1e3 + s.duration[1] / 1e6).toFixed(1)

/** The plugin's attributes worth a glance, short. */
function facts(s: ReadableSpan): string {
  const keep = Object.entries(s.attributes).filter(([k]) => k.startsWith("payneteasy.") && k !== "payneteasy.operation" && k !== "payneteasy.moves_money")
  const text = keep.map(([k, v]) => `${k.slice("payneteasy.".length)}=${v}`).join(" ")
  const links = s.links.length ? ` links→${s.links.map((l) => l.context.traceId.slice(0, 8)).join(",")}` : ""
  return text || links ? `  [${text}${links}]` : ""
}

const QUIET_MS = 400

/** Prints each trace that holds a plugin span, as an indented tree, QUIET_MS after its last span ended. */
export class TraceTreePrinter implements SpanExporter {
  private readonly byTrace = new Map<string, ReadableSpan[]>()
  private readonly timers = new Map<string, NodeJS.Timeout>()
  export(spans: ReadableSpan[], done: (result: { code: number }) => void): void {
    for (const s of spans) {
      const id = s.spanContext().traceId
      const list = this.byTrace.get(id) ?? []
      list.push(s)
      this.byTrace.set(id, list)
      clearTimeout(this.timers.get(id))
      const timer = setTimeout(() => this.print(id), QUIET_MS)
      timer.unref()
      this.timers.set(id, timer)
    }
    done({ code: 0 })
  }
  private print(traceId: string): void {
    const spans = this.byTrace.get(traceId) ?? []
    this.byTrace.delete(traceId)
    this.timers.delete(traceId)
    if (!spans.some((s) => s.instrumentationScope.name === SCOPE)) return
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]))
    const shown = (s: ReadableSpan) => !s.name.startsWith("middleware:")
    // the nearest shown ancestor of a span
    const parentOf = (s: ReadableSpan): ReadableSpan | undefined => {
      let p = s.parentSpanContext ? byId.get(s.parentSpanContext.spanId) : undefined
      while (p && !shown(p)) p = p.parentSpanContext ? byId.get(p.parentSpanContext.spanId) : undefined
      return p
    }
    const children = new Map<ReadableSpan | undefined, ReadableSpan[]>()
    for (const s of spans.filter(shown)) {
      const p = parentOf(s)
      children.set(p, [...(children.get(p) ?? []), s])
    }
    const lines: string[] = [`trace ${traceId}`]
    const walk = (s: ReadableSpan, depth: number) => {
      lines.push(`${"  ".repeat(depth + 1)}${s.name} ${ms(s)} ms${facts(s)}`)
      for (const c of (children.get(s) ?? []).sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1])) walk(c, depth + 1)
    }
    for (const root of children.get(undefined) ?? []) walk(root, 0)
    process.stdout.write(`${lines.join("\n")}\n`)
  }
  async shutdown(): Promise<void> {}
}

export function registerDemoTracing(): void {
  registerOtel({
    serviceName: "payneteasy-demo",
    exporter: new TraceTreePrinter(),
    instrument: { http: true, workflows: true },
    metricReaders: [],
    logRecordProcessors: [],
  })
}

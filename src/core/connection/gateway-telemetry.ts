/**
 * OpenTelemetry on every gateway request: the observer (src/gateway/observe.ts) every server-side client is built with
 * (options.ts `gatewayConfigOf`), and `settleSpan` for the steps that settle a request whose reply was lost.
 *
 * A request is a CLIENT span `PaynetEasy <OPERATION>` under whatever is current (Medusa's route, workflow step or
 * job span, a subscriber's span, a settle step) with the operation, the endpoint, the outcome class from the one
 * classifier (reach.ts: answered / not-sent / maybe-sent), the gateway's status, serial number, gateway order id and
 * client order id, the HTTP status and the number of attempts; a retry of a read-only request is a child span
 * `PaynetEasy <OPERATION> retry`. Its duration goes to the `payneteasy.gateway.request.duration` histogram
 * (core/telemetry/metrics.ts) by operation and outcome. What is recorded is exactly those facts: never a request
 * field's value (card data, e-mail, amount), never the control key; an error's message only through `telemetryText`.
 *
 * Telemetry never fails a request: every observer call is guarded, and with no SDK registered the observer answers
 * undefined, so the client does what it did before (bench "gateway call, tracing off").
 */
import { context, SpanKind, trace, type Attributes, type Span } from "@medusajs/framework/opentelemetry/api"
import type { GatewayObserver, GatewayRequestEnd, GatewayRequestInfo, GatewayRequestObservation } from "../../gateway/observe"
import { GatewayError } from "../../gateway"
import { errorType, inSpan, markFailed, tracer } from "../telemetry/otel"
import { instruments } from "../telemetry/metrics"
import { reachOf } from "./reach"

/** server.address and server.port of a request URL, parsed once per URL (one per operation and registration). */
const servers = new Map<string, { address: string; port: number }>()
function serverOf(href: string): { address: string; port: number } {
  let server = servers.get(href)
  if (!server) {
    const url = new URL(href)
    server = { address: url.hostname, port: Number(url.port || (url.protocol === "https:" ? 443 : 80)) }
    if (servers.size > 1000) servers.clear()
    servers.set(href, server)
  }
  return server
}

/** The span attributes of a request, as it starts. */
function requestAttributes(info: GatewayRequestInfo): Attributes {
  const server = serverOf(info.url)
  const a: Attributes = {
    "payneteasy.operation": info.operation,
    "payneteasy.moves_money": info.movesMoney,
    "payneteasy.endpoint": info.endpoint,
    "http.request.method": "POST",
    "server.address": server.address,
    "server.port": server.port,
    "url.full": info.url,
  }
  if (info.clientOrderId) a["payneteasy.client_order_id"] = info.clientOrderId
  if (info.orderId) a["payneteasy.gateway_order_id"] = info.orderId
  if (info.serialNumber) a["payneteasy.serial"] = info.serialNumber
  return a
}

/** The span attributes of how it ended. */
function endAttributes(result: GatewayRequestEnd): Attributes {
  const a: Attributes = { "payneteasy.attempts": result.attempts }
  const r = result.reply
  if (r) {
    a["payneteasy.outcome"] = "answered"
    if (r.httpStatus !== undefined) a["http.response.status_code"] = r.httpStatus
    if (r.status) a["payneteasy.gateway_status"] = r.status
    if (r.serialNumber) a["payneteasy.serial"] = r.serialNumber
    if (r.orderId) a["payneteasy.gateway_order_id"] = r.orderId
    if (r.clientOrderId) a["payneteasy.client_order_id"] = r.clientOrderId
    if (r.errorCode) a["payneteasy.error_code"] = r.errorCode
    return a
  }
  const e = result.error
  a["payneteasy.outcome"] = reachOf(e)
  if (e instanceof GatewayError) {
    if (e.httpStatus !== undefined) a["http.response.status_code"] = e.httpStatus
    if (e.code) a["payneteasy.error_code"] = e.code
  }
  return a
}

function observe(info: GatewayRequestInfo): GatewayRequestObservation | undefined {
  const parent = context.active()
  const span = tracer().startSpan(`PaynetEasy ${info.operation}`, { kind: SpanKind.CLIENT }, parent)
  const recording = span.isRecording()
  const metrics = instruments()
  if (!recording && !metrics) return undefined
  const started = performance.now()
  if (recording) span.setAttributes(requestAttributes(info))
  const current = recording ? trace.setSpan(parent, span) : parent
  return {
    attempt<T>(n: number, send: () => Promise<T>): Promise<T> {
      if (!recording) return send()
      if (n === 1) {
        return context.with(current, send).catch((error: unknown) => {
          guarded(() => span.addEvent("attempt failed", { "payneteasy.attempt": 1, "error.type": errorType(error), "payneteasy.outcome": reachOf(error) }))
          throw error
        })
      }
      const retry = tracer().startSpan(`PaynetEasy ${info.operation} retry`, { attributes: { "payneteasy.attempt": n } }, current)
      return context.with(trace.setSpan(current, retry), send).then(
        (reply) => {
          retry.end()
          return reply
        },
        (error: unknown) => {
          guarded(() => {
            retry.setAttribute("payneteasy.outcome", reachOf(error))
            markFailed(retry, error)
            retry.end()
          })
          throw error
        }
      )
    },
    end(result: GatewayRequestEnd): void {
      guarded(() => {
        const attributes = endAttributes(result)
        if (metrics) {
          const labels: Attributes = { "payneteasy.operation": info.operation, "payneteasy.outcome": attributes["payneteasy.outcome"] }
          if (!result.reply) labels["error.type"] = errorType(result.error)
          metrics.gatewayDuration.record((performance.now() - started) / 1000, labels)
        }
        if (!recording) return
        span.setAttributes(attributes)
        if (!result.reply) markFailed(span, result.error)
        span.end()
      })
    },
  }
}

function guarded(fn: () => void): void {
  try {
    fn()
  } catch {
    // telemetry never fails a gateway request
  }
}

/** The observer every server-side gateway client is built with. */
export const gatewayTelemetry: GatewayObserver = {
  request(info) {
    try {
      return observe(info)
    } catch {
      return undefined
    }
  },
}

/**
 * A settle step as a child span (`PaynetEasy settle <step>`): the STATUS requests that decide a request whose reply
 * was lost or not final, made inside `fn`, are its children. `step` names it (`lost reply`, `poll`…); `facts` are the
 * operation settled and its client order id. For the send-and-settle helpers of core/connection (gateway-ops.ts) and
 * the follow-ups that settle by STATUS; with no SDK registered it only runs `fn`.
 */
export function settleSpan<T>(step: string, facts: { operation?: string; clientOrderId?: string; orderId?: string }, fn: (span: Span) => Promise<T>): Promise<T> {
  const attributes: Attributes = { "payneteasy.settle.step": step }
  if (facts.operation) attributes["payneteasy.operation"] = facts.operation
  if (facts.clientOrderId) attributes["payneteasy.client_order_id"] = facts.clientOrderId
  if (facts.orderId) attributes["payneteasy.gateway_order_id"] = facts.orderId
  return inSpan(`PaynetEasy settle ${step}`, { attributes }, fn)
}

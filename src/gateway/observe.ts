/**
 * The gateway client's observation seam: how tracing and metrics see every request without the framework-free floor
 * knowing any telemetry library (core/connection/gateway-telemetry.ts plugs OpenTelemetry in here).
 *
 * A client built with `observer` asks it once per `request()` for an observation, runs each attempt through it (so
 * an observer can make its span current and time a retry as a child), and ends it with what the gateway answered or
 * the error the caller gets. The facts handed over are already read out of the request and the reply (the wire names
 * live here, as everywhere in src/gateway): the operation, the endpoint, the three ids a person searches by and the
 * reply's status, never a request field's value otherwise (no card data, no e-mail, no amount, no signature).
 * Without an observer the client does nothing more than one `undefined` check per request; an observer that has
 * nothing to record (no OpenTelemetry SDK) answers `undefined` and costs the same.
 */
import type { OperationSpec } from "./operations"
import { parseGatewayStatus } from "./operations"
import { clientOrderIdOf, errorCodeOf, orderIdOf, serialNumberOf } from "./replies"
import { scrub } from "./scrub"

/** One request as the caller made it, before anything is sent. */
export interface GatewayRequestInfo {
  /** The operation table's name: STATUS, SALE, CAPTURE… */
  operation: string
  movesMoney: boolean
  /** The request's address: the base URL and the operation's path with the endpoint (no query, no credentials). */
  url: string
  /** The endpoint id, or `group/<id>` for an endpoint group. */
  endpoint: string
  /** The request's client order id, gateway order id and serial number, where it names them. */
  clientOrderId?: string
  orderId?: string
  serialNumber?: string
}

/** What a reply said, read with the typed readers. */
export interface GatewayReplyFacts {
  httpStatus?: number
  /** The transaction status (approved, declined, processing…), when the reply carries one. */
  status?: string
  serialNumber?: string
  orderId?: string
  clientOrderId?: string
  errorCode?: string
}

/** How a request ended: the reply's facts, or the error the caller gets (a GatewayError). */
export type GatewayRequestEnd = { attempts: number } & ({ reply: GatewayReplyFacts; error?: undefined } | { error: unknown; reply?: undefined })

export interface GatewayRequestObservation {
  /** Runs attempt `n` (1-based; read-only operations retry transient failures). Resolves or rejects as `send` does. */
  attempt<T>(n: number, send: () => Promise<T>): Promise<T>
  end(result: GatewayRequestEnd): void
}

export interface GatewayObserver {
  /** An observation of this request, or undefined when there is nothing to record. Must not throw. */
  request(info: GatewayRequestInfo): GatewayRequestObservation | undefined
}

/** A request's fields as the client takes them (request.ts RequestFields, restated: request.ts imports config.ts, which imports this). */
type RequestFields = Record<string, string | number | undefined>

const text = (v: unknown): string | undefined => (v === undefined || v === null || v === "" ? undefined : String(v))

/** The request's facts (three ids and where it goes); `url` and `endpoint` are the client's. */
export function requestInfo(spec: OperationSpec, fields: RequestFields, url: string, endpoint: string): GatewayRequestInfo {
  return {
    operation: spec.name,
    movesMoney: spec.movesMoney,
    url,
    endpoint,
    clientOrderId: text(fields?.client_orderid)?.trim(),
    orderId: text(fields?.orderid)?.trim(),
    serialNumber: text(fields?.["by-request-sn"])?.trim(),
  }
}

/** A validated reply's facts. */
export function replyFacts(reply: Record<string, unknown>, httpStatus: number | undefined): GatewayReplyFacts {
  const status = reply.status === undefined || reply.status === null ? undefined : parseGatewayStatus(reply.status)
  return {
    httpStatus,
    status,
    serialNumber: serialNumberOf(reply),
    orderId: orderIdOf(reply),
    clientOrderId: clientOrderIdOf(reply),
    errorCode: errorCodeOf(reply),
  }
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g

/**
 * Text for a telemetry attribute or a span's status: `scrub` (secrets, card numbers, CVV) and every e-mail address
 * masked, at most 300 characters. An error message can quote the gateway's own message, which may echo a field.
 */
export function telemetryText(value: string, secrets: readonly string[] = []): string {
  return scrub(value, secrets).replace(EMAIL, "[email]").slice(0, 300)
}

/**
 * HTTP transport on undici: one keep-alive connection pool per client, explicit timeouts, replies read whole (at most
 * MAX_REPLY_BYTES), and a classification of failures by whether the request may have reached the gateway.
 *
 * `indeterminate` (GatewayTransportError) is false only when the request certainly was not sent — the
 * connection was never established (refused, DNS failure, connect timeout, TLS handshake failure). Anything
 * later (headers or body timeout, reset, closed socket, a broken reply) is true: the gateway may have acted on
 * the request, so a money-moving request must be followed by STATUS, never re-sent.
 */
import { Client, errors } from "undici"
import { GatewayTransportError } from "./errors"
import type { RawReply } from "./response"

export interface TransportTimeouts {
  connectMs: number
  headersMs: number
  bodyMs: number
}

export const DEFAULT_TIMEOUTS: TransportTimeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 }

/** Error codes raised before any byte of the request could reach the server. */
const NOT_SENT_CODES = new Set([
  "UND_ERR_CONNECT_TIMEOUT", "ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME",
  "EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ENETDOWN", "EADDRNOTAVAIL", "EADDRINUSE",
  // Not UND_ERR_DESTROYED / UND_ERR_CLOSED: a pool closed or destroyed while a request is in flight fails that request
  // with them after its bytes may have left, so they prove nothing about whether the gateway received it.
  "UND_ERR_INVALID_ARG",
  "DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "ERR_TLS_CERT_ALTNAME_INVALID",
])

function errorCode(error: unknown): string | undefined {
  let e: unknown = error
  for (let depth = 0; depth < 4 && e && typeof e === "object"; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === "string") return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}

/** Whether a failure means the request certainly did not reach the server. */
export function certainlyNotSent(error: unknown): boolean {
  const code = errorCode(error)
  return code !== undefined && NOT_SENT_CODES.has(code)
}

function describe(code: string | undefined): string {
  switch (code) {
    case "UND_ERR_CONNECT_TIMEOUT":
      return "connect timeout"
    case "UND_ERR_HEADERS_TIMEOUT":
      return "timed out waiting for the reply headers"
    case "UND_ERR_BODY_TIMEOUT":
      return "timed out reading the reply body"
    case "UND_ERR_SOCKET":
      return "connection closed by the other side"
    case undefined:
      return "network error"
    default:
      return code
  }
}

/** A gateway reply is a few kilobytes (the 3-D Secure form is the largest); anything past this is not one. */
export const MAX_REPLY_BYTES = 1024 * 1024

/** Thrown into the dispatch when a reply outgrows MAX_REPLY_BYTES. */
class ReplyTooLarge extends Error {
  readonly code = "REPLY_TOO_LARGE"
}

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const

/** The reply bytes as text, a leading UTF-8 byte order mark dropped (as undici's body.text() does). */
function utf8(chunks: Buffer[]): string {
  const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
  const bom = bytes.length >= 3 && bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2]
  return bytes.toString("utf8", bom ? 3 : 0)
}

/** A failure of the exchange as GatewayTransportError, saying whether the request may have reached the gateway. */
function transportError(error: unknown, context: { operation: string; secrets: readonly string[] }): GatewayTransportError {
  const code = errorCode(error)
  const indeterminate = !certainlyNotSent(error)
  return new GatewayTransportError(
    `${context.operation}: ${error instanceof ReplyTooLarge ? error.message : describe(code)}${indeterminate ? " (the request may have reached the gateway)" : " (request not sent)"}`,
    { operation: context.operation, indeterminate, secrets: context.secrets, cause: error },
  )
}

/**
 * Connections as undici Clients (one keep-alive connection each, pipelining 1), kept here rather than in an undici
 * Pool: a request goes to a connection with none of this transport's requests in flight, the most recently freed
 * first (sequential calls keep one connection), or to a new one when all are busy (requests made at once go side by
 * side, as a Pool without a limit sends them). A connection is free again the moment its reply ends. A Pool marks it
 * free only one event-loop turn later (undici hands the connection back in a setImmediate, client-h1
 * onMessageComplete), so a request made at once found every connection busy and opened another; this transport used
 * to hold such a request for that turn, and undici's check of the idle socket (a setImmediate scheduled when the
 * request reaches the connection, GHSA-35p6-xmwp-9g52) then took a second turn. Dispatched at once to its Client, the
 * request waits in that Client's queue, and undici's hand-back and idle-socket check run in the same turn, as for any
 * undici Client (bench "gateway call": its floor is one).
 */
export class HttpTransport {
  private readonly origin: string
  private readonly basePath: string
  private readonly options: Client.Options
  /** Every connection opened and not closed. */
  private readonly clients = new Set<Client>()
  /** Connections with none of our requests in flight, the most recently freed last. */
  private readonly idle: Client[] = []
  private closing = false

  constructor(baseUrl: string, timeouts: TransportTimeouts) {
    const url = new URL(baseUrl)
    this.origin = url.origin
    this.basePath = url.pathname.replace(/\/+$/, "")
    this.options = {
      connect: { timeout: timeouts.connectMs },
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
      keepAliveTimeout: 4_000,
      pipelining: 1,
    }
  }

  /** A connection with nothing of ours in flight: the last one freed, or a new one. */
  private acquire(): Client {
    const free = this.idle.pop()
    if (free) return free
    const client = new Client(this.origin, this.options)
    this.clients.add(client)
    return client
  }

  private release(client: Client): void {
    if (this.closing || client.destroyed || client.closed) this.clients.delete(client)
    else this.idle.push(client)
  }

  /**
   * POSTs `body` to basePath + `path`. Resolves with any HTTP status; rejects with GatewayTransportError.
   *
   * One request through undici's dispatch API, the reply collected as bytes, in one promise. `request()` would
   * wrap the reply in a Readable stream that is only ever read whole; building and draining that stream cost about as
   * much as the rest of a STATUS call's own work (bench: "gateway call"), and an async wrapper around the dispatch
   * cost another promise and await per call. Timeouts and errors are the Client's, as with request().
   */
  post(path: string, headers: Record<string, string>, body: string, context: { operation: string; secrets: readonly string[] }): Promise<RawReply> {
    return new Promise<RawReply>((resolve, reject) => {
      if (this.closing) {
        reject(transportError(new errors.ClientClosedError(), context))
        return
      }
      const client = this.acquire()
      let settled = false
      const fail = (error: unknown) => {
        if (settled) return
        settled = true
        this.release(client)
        reject(transportError(error, context))
      }
      let status = 0
      let size = 0
      const chunks: Buffer[] = []
      try {
        client.dispatch({ method: "POST", path: this.basePath + path, headers, body }, {
          onRequestStart() {},
          onResponseStart(_controller, statusCode) {
            status = statusCode
          },
          onResponseData(controller, chunk) {
            size += chunk.length
            if (size > MAX_REPLY_BYTES) controller.abort(new ReplyTooLarge(`reply larger than ${MAX_REPLY_BYTES} bytes`))
            else chunks.push(chunk)
          },
          onResponseEnd: () => {
            if (settled) return
            settled = true
            this.release(client)
            resolve({ status, body: utf8(chunks) })
          },
          onResponseError(_controller, error) {
            fail(error)
          },
        })
      } catch (error) {
        fail(error)
      }
    })
  }

  async close(): Promise<void> {
    this.closing = true
    this.idle.length = 0
    const clients = [...this.clients]
    this.clients.clear()
    await Promise.all(clients.map((c) => c.close()))
  }
}

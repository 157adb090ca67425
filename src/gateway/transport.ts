/**
 * HTTP transport on undici: one keep-alive connection pool per client, explicit timeouts, replies read whole (at most
 * MAX_REPLY_BYTES), and a classification of failures by whether the request may have reached the gateway.
 *
 * `indeterminate` (GatewayTransportError) is false only when the request certainly was not sent — the
 * connection was never established (refused, DNS failure, connect timeout, TLS handshake failure). Anything
 * later (headers or body timeout, reset, closed socket, a broken reply) is true: the gateway may have acted on
 * the request, so a money-moving request must be followed by STATUS, never re-sent.
 */
import { Pool } from "undici"
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

export class HttpTransport {
  private readonly pool: Pool
  private readonly basePath: string
  /** Replies whose connection undici has not yet handed back to the pool (one event-loop turn each). */
  private handingBack = 0
  /** Requests waiting for those turns before they are dispatched. */
  private waiting: Array<() => void> = []
  private readonly handedBack = (): void => {
    if (--this.handingBack > 0) return
    const waiting = this.waiting
    this.waiting = []
    for (const go of waiting) go()
  }

  constructor(baseUrl: string, timeouts: TransportTimeouts) {
    const url = new URL(baseUrl)
    this.basePath = url.pathname.replace(/\/+$/, "")
    this.pool = new Pool(url.origin, {
      connect: { timeout: timeouts.connectMs },
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
      keepAliveTimeout: 4_000,
      pipelining: 1,
    })
  }

  /**
   * POSTs `body` to basePath + `path`. Resolves with any HTTP status; rejects with GatewayTransportError.
   *
   * undici hands a connection back to the pool one event-loop turn after its reply ends (client-h1 onMessageComplete,
   * pipelining 1); a request dispatched before that turn finds every connection busy and opens another. The reply is
   * answered at once, and a request made while a connection is still being handed back waits for that turn, so
   * sequential calls keep one connection. (Waiting the turn before answering, as this did before, cost every call
   * about 4 % of a loopback STATUS: bench "gateway call".) Requests made while others are in flight go at once.
   */
  post(path: string, headers: Record<string, string>, body: string, context: { operation: string; secrets: readonly string[] }): Promise<RawReply> {
    if (this.handingBack === 0) return this.send(path, headers, body, context)
    return new Promise<void>((go) => this.waiting.push(go)).then(() => this.send(path, headers, body, context))
  }

  /**
   * One request through undici's dispatch API, the reply collected as bytes, in one promise. `pool.request()` would
   * wrap the reply in a Readable stream that is only ever read whole; building and draining that stream cost about as
   * much as the rest of a STATUS call's own work (bench: "gateway call"), and an async wrapper around the dispatch
   * cost another promise and await per call. Timeouts and errors are the pool's, as with request().
   */
  private send(path: string, headers: Record<string, string>, body: string, context: { operation: string; secrets: readonly string[] }): Promise<RawReply> {
    return new Promise<RawReply>((resolve, reject) => {
      const fail = (error: unknown) => reject(transportError(error, context))
      const handedBack = this.handedBack
      let status = 0
      let size = 0
      const chunks: Buffer[] = []
      try {
        this.pool.dispatch({ method: "POST", path: this.basePath + path, headers, body }, {
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
            // undici schedules its hand-back (a setImmediate) after this handler returns; the microtask runs once
            // it has, so this setImmediate comes after undici's.
            this.handingBack++
            queueMicrotask(() => setImmediate(handedBack))
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
    await this.pool.close()
  }
}

/**
 * GatewayConfig: what a client needs to talk to one merchant account, and its validation.
 *
 * The base URL includes the path prefix (`https://sandbox.payneteasy.com/paynet`); the docs say the path must not
 * be hard-coded and white labels use other prefixes (gateway notes §1). A trailing slash is tolerated.
 * Exactly one of endpointId / endpointGroupId; the group id puts `/group/<id>` in the URL.
 */
import { GatewayConfigError } from "./errors"
import { loadRsaPrivateKey } from "./oauth"
import { OPERATIONS, type OperationName, type SignatureMethod } from "./operations"
import { DEFAULT_TIMEOUTS, type TransportTimeouts } from "./transport"
import type { GatewayObserver } from "./observe"
import type { KeyObject } from "node:crypto"

export interface GatewayConfig {
  /** Includes the path prefix, e.g. "http://127.0.0.1:4010/paynet". */
  baseUrl: string
  /** Exactly one of endpointId / endpointGroupId (group → URL .../<op>/group/<id>). */
  endpointId?: string
  endpointGroupId?: string
  login: string
  controlKey: string
  /** RSA private key, PKCS#1 or PKCS#8 PEM, >= 2048 bits; needed for RSA-SHA256 operations. */
  privateKeyPem?: string
  /** Per-operation override of the table's OAuth method (OAuth operations only). */
  signatureMethods?: Partial<Record<OperationName, SignatureMethod>>
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number }
  /** Retries of read-only operations (movesMoney=false) on transient failures; default 2. */
  readRetries?: number
  /** Sees every request (tracing, metrics: observe.ts); none by default. */
  observer?: GatewayObserver
}

/** The validated, defaulted configuration the client works from. */
export interface ResolvedConfig {
  baseUrl: string
  endpoint?: { kind: "endpoint" | "group"; id: string }
  login: string
  controlKey: string
  privateKey?: KeyObject
  signatureMethods: Partial<Record<OperationName, SignatureMethod>>
  timeouts: TransportTimeouts
  readRetries: number
}

const ID = /^[A-Za-z0-9_-]+$/
const METHODS: readonly SignatureMethod[] = ["HMAC-SHA1", "RSA-SHA256"]

function nonEmpty(value: unknown, name: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new GatewayConfigError(`${name} is required`)
  return value
}

function timeout(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value <= 0) throw new GatewayConfigError(`timeouts.${name} must be a positive integer (ms)`)
  return value
}

export function resolveConfig(config: GatewayConfig): ResolvedConfig {
  if (!config || typeof config !== "object") throw new GatewayConfigError("config is required")
  const rawBase = nonEmpty(config.baseUrl, "baseUrl").trim()
  let url: URL
  try {
    url = new URL(rawBase)
  } catch {
    throw new GatewayConfigError("baseUrl is not a valid URL")
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new GatewayConfigError("baseUrl must be http(s)")
  if (url.search || url.hash || url.username || url.password) {
    throw new GatewayConfigError("baseUrl must not carry a query, fragment or credentials")
  }
  const baseUrl = `${url.origin}${url.pathname.replace(/\/+$/, "")}`

  const login = nonEmpty(config.login, "login").trim()
  // The control key is used byte-exact (notes §6.3); only refuse an empty one.
  const controlKey = nonEmpty(config.controlKey, "controlKey")

  const endpointId = config.endpointId === undefined || config.endpointId === "" ? undefined : String(config.endpointId).trim()
  const groupId =
    config.endpointGroupId === undefined || config.endpointGroupId === "" ? undefined : String(config.endpointGroupId).trim()
  if (endpointId !== undefined && groupId !== undefined) {
    throw new GatewayConfigError("set exactly one of endpointId and endpointGroupId, not both")
  }
  for (const [name, value] of [["endpointId", endpointId], ["endpointGroupId", groupId]] as const) {
    if (value !== undefined && !ID.test(value)) throw new GatewayConfigError(`${name} must be an id (digits), got "${value.slice(0, 20)}"`)
  }
  const endpoint =
    endpointId !== undefined ? { kind: "endpoint" as const, id: endpointId } : groupId !== undefined ? { kind: "group" as const, id: groupId } : undefined

  const privateKey = config.privateKeyPem ? loadRsaPrivateKey(config.privateKeyPem) : undefined

  const signatureMethods: Partial<Record<OperationName, SignatureMethod>> = {}
  for (const [op, method] of Object.entries(config.signatureMethods ?? {})) {
    if (method === undefined) continue
    const spec = (OPERATIONS as Record<string, (typeof OPERATIONS)[OperationName]>)[op]
    if (!spec) throw new GatewayConfigError(`signatureMethods names an unknown operation "${op}"`)
    if (spec.auth.kind !== "oauth") throw new GatewayConfigError(`signatureMethods.${op}: ${op} is authenticated by control, not OAuth`)
    if (!METHODS.includes(method)) throw new GatewayConfigError(`signatureMethods.${op} must be HMAC-SHA1 or RSA-SHA256`)
    signatureMethods[op as OperationName] = method
  }

  const t = config.timeouts ?? {}
  const timeouts: TransportTimeouts = {
    connectMs: timeout(t.connectMs, DEFAULT_TIMEOUTS.connectMs, "connectMs"),
    headersMs: timeout(t.headersMs, DEFAULT_TIMEOUTS.headersMs, "headersMs"),
    bodyMs: timeout(t.bodyMs, DEFAULT_TIMEOUTS.bodyMs, "bodyMs"),
  }
  const readRetries = config.readRetries ?? 2
  if (!Number.isInteger(readRetries) || readRetries < 0 || readRetries > 10) {
    throw new GatewayConfigError("readRetries must be an integer between 0 and 10")
  }
  return { baseUrl, endpoint, login, controlKey, privateKey, signatureMethods, timeouts, readRetries }
}

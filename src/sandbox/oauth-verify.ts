/**
 * OAuth 1.0a (two-legged) verification, the sandbox's own (not the client's signer).
 *
 * The consumer key is the merchant login. The signed set is every body parameter plus the oauth_* parameters
 * (from the Authorization header or, as the old docs show, from the body), except oauth_signature; names and values
 * are RFC 3986 encoded, sorted, joined, and the base string is POST&enc(url)&enc(params) (notes §10).
 * HMAC-SHA1 uses key = controlKey + "&"; RSA-SHA256 verifies with the merchant's registered public key.
 * oauth_timestamp must be within the window; a nonce seen before (per consumer, within the window) is refused.
 * Any failure is reported as a reason for an HTTP 403.
 */
import { createHmac, createPublicKey, timingSafeEqual, verify } from "node:crypto"
import type { SignatureMethod } from "../gateway/operations"
import type { SandboxMerchant } from "./options"

export const rfc3986 = (s: string): string =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())

/** Parses `Authorization: OAuth realm="", oauth_consumer_key="..", ...` into decoded pairs (realm dropped). */
export function parseOAuthHeader(header: string | undefined): Map<string, string> | undefined {
  if (!header || !/^OAuth\s/i.test(header.trim())) return undefined
  const out = new Map<string, string>()
  const re = /([A-Za-z0-9_\-.]+)\s*=\s*"([^"]*)"/g
  for (let m = re.exec(header); m; m = re.exec(header)) {
    if (m[1] === "realm") continue
    try {
      out.set(m[1], decodeURIComponent(m[2]))
    } catch {
      out.set(m[1], m[2])
    }
  }
  return out
}

/**
 * Remembers nonces until they can no longer pass the timestamp check. Insertion order is time order, so expired
 * entries are dropped from the head: amortised O(1) per request, no scan.
 */
export class NonceBook {
  private seen = new Map<string, number>()
  constructor(private readonly ttlMs: () => number) {}
  /** true when the nonce is fresh (and records it); false when replayed. */
  use(consumer: string, nonce: string, nowMs: number): boolean {
    for (const [k, expires] of this.seen) {
      if (expires > nowMs) break
      this.seen.delete(k)
    }
    const key = `${consumer}\u0000${nonce}`
    if (this.seen.has(key)) return false
    this.seen.set(key, nowMs + this.ttlMs())
    return true
  }
  clear(): void {
    this.seen.clear()
  }
}

export interface OAuthRequest {
  /** Absolute URL the client posted to (scheme and host lowercase, no default port, no query). */
  url: string
  authorization: string | undefined
  /** Body pairs in arrival order, decoded, untrimmed. */
  bodyPairs: Array<[string, string]>
}

export type OAuthResult = { ok: true; consumer: string; method: SignatureMethod } | { ok: false; reason: string }

export function verifyOAuth(
  req: OAuthRequest,
  merchant: SandboxMerchant,
  allowedMethods: readonly SignatureMethod[],
  windowSeconds: number,
  nonces: NonceBook,
  nowMs: number,
): OAuthResult {
  const header = parseOAuthHeader(req.authorization)
  const oauth = new Map<string, string>()
  for (const [k, v] of req.bodyPairs) if (k.startsWith("oauth_")) oauth.set(k, v)
  if (header) for (const [k, v] of header) oauth.set(k, v)
  const signature = oauth.get("oauth_signature")
  const consumer = oauth.get("oauth_consumer_key")
  const method = oauth.get("oauth_signature_method")
  const timestamp = oauth.get("oauth_timestamp")
  const nonce = oauth.get("oauth_nonce")
  if (!signature || !consumer || !method || !timestamp || !nonce) {
    return { ok: false, reason: "missing OAuth parameters (oauth_consumer_key, oauth_signature_method, oauth_timestamp, oauth_nonce, oauth_signature)" }
  }
  if (consumer !== merchant.login) return { ok: false, reason: "unknown consumer key for this endpoint" }
  if (!(allowedMethods as readonly string[]).includes(method)) {
    return { ok: false, reason: `signature method ${method} not accepted here (accepted: ${allowedMethods.join(", ")})` }
  }
  const version = oauth.get("oauth_version")
  if (version !== undefined && version !== "1.0") return { ok: false, reason: "oauth_version must be 1.0" }
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > windowSeconds) {
    return { ok: false, reason: "oauth_timestamp outside the accepted window" }
  }

  // Signed set: body parameters (oauth_* from the body included once) + header oauth_* parameters.
  const pairs: Array<[string, string]> = []
  for (const [k, v] of req.bodyPairs) if (!k.startsWith("oauth_")) pairs.push([k, v])
  for (const [k, v] of oauth) if (k !== "oauth_signature") pairs.push([k, v])
  const encoded = pairs.map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
  encoded.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
  const paramString = encoded.map(([k, v]) => `${k}=${v}`).join("&")
  const base = `POST&${rfc3986(req.url)}&${rfc3986(paramString)}`

  let good = false
  if (method === "HMAC-SHA1") {
    const expected = createHmac("sha1", merchant.controlKey + "&").update(base).digest()
    const given = Buffer.from(signature, "base64")
    good = given.length === expected.length && timingSafeEqual(given, expected)
  } else {
    if (!merchant.publicKeyPem) return { ok: false, reason: "no RSA public key registered for this merchant" }
    try {
      good = verify("sha256", Buffer.from(base), createPublicKey(merchant.publicKeyPem), Buffer.from(signature, "base64"))
    } catch {
      good = false
    }
  }
  if (!good) return { ok: false, reason: "OAuth signature does not verify" }
  // Only a correctly signed request consumes its nonce, so a forged request cannot burn a real one.
  if (!nonces.use(consumer, nonce, nowMs)) return { ok: false, reason: "oauth_nonce already used (replay)" }
  return { ok: true, consumer, method: method as SignatureMethod }
}

/**
 * OAuth 1.0a two-legged request signing (seed "Scheme B"; gateway notes §10).
 *
 * - Consumer key = merchant login; no token. oauth_version 1.0, oauth_timestamp in seconds, a random nonce.
 * - Signed parameters = the request body parameters + oauth_* except oauth_signature, each name and value
 *   RFC 3986-encoded, sorted by encoded name then encoded value, joined name=value with &.
 * - Base string = METHOD & enc(normalized URL) & enc(parameter string); the URL has lowercase scheme and host,
 *   no default port, no query or fragment.
 * - HMAC-SHA1 signs with key = control key + "&" (empty token secret), byte-exact as the vendor doc words it
 *   (RFC 5849 would percent-encode the secret first; identical for the UUID-shaped keys the gateway issues); RSA-SHA256 signs with the merchant's
 *   RSA private key (PKCS#1 or PKCS#8 PEM, at least 2048 bits). The signature is Base64.
 * - The oauth_* parameters travel in the `Authorization: OAuth …` header only, values percent-encoded.
 *
 * `oauthBaseString` and `oauthSign` are pure (nonce and timestamp are inputs) so tests can pin vectors.
 */
import { createHmac, createPrivateKey, randomBytes, sign as cryptoSign, type KeyObject } from "node:crypto"
import { percentEncode } from "./encode"
import { GatewayConfigError } from "./errors"
import type { SignatureMethod } from "./operations"

export const MIN_RSA_BITS = 2048

export type OAuthParamList = ReadonlyArray<readonly [string, string]>

/** scheme://host[:port]/path — lowercase scheme and host, default port dropped, no query or fragment. */
export function normalizeOAuthUrl(url: string): string {
  // A client signs every request against the same few URLs: remember the last one (URL parsing costs more than
  // the HMAC itself; bench "signing: OAuth HMAC-SHA1").
  if (url === lastUrl.url) return lastUrl.normalized
  const normalized = normalizeUncached(url)
  lastUrl = { url, normalized }
  return normalized
}

let lastUrl = { url: "", normalized: "" }

function normalizeUncached(url: string): string {
  const u = new URL(url)
  const scheme = u.protocol.toLowerCase() // "https:"
  const host = u.hostname.toLowerCase()
  const defaultPort = (scheme === "http:" && u.port === "80") || (scheme === "https:" && u.port === "443")
  const port = u.port && !defaultPort ? `:${u.port}` : ""
  return `${scheme}//${host}${port}${u.pathname}`
}

/** The normalized parameter string: encoded, sorted by name then value, joined with &. */
export function oauthParameterString(params: OAuthParamList): string {
  return params
    .filter(([name]) => name !== "oauth_signature")
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    .sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&")
}

/** METHOD&enc(url)&enc(params). `params` are the body parameters plus the oauth_* parameters. */
export function oauthBaseString(httpMethod: string, url: string, params: OAuthParamList): string {
  return [httpMethod.toUpperCase(), normalizeOAuthUrl(url), oauthParameterString(params)].map(percentEncode).join("&")
}

/**
 * Parses and checks an RSA private key (PKCS#1 (an "RSA PRIVATE KEY" PEM) or PKCS#8 (a "PRIVATE KEY" PEM)).
 * Keys under 2048 bits, non-RSA keys and unreadable PEM → GatewayConfigError (the message never quotes the key).
 */
export function loadRsaPrivateKey(pem: string): KeyObject {
  let key: KeyObject
  try {
    key = createPrivateKey({ key: pem, format: "pem" })
  } catch {
    throw new GatewayConfigError("privateKeyPem is not a readable unencrypted PEM private key (PKCS#1 or PKCS#8)")
  }
  if (key.asymmetricKeyType !== "rsa") {
    throw new GatewayConfigError(`privateKeyPem must be an RSA key (got ${key.asymmetricKeyType ?? "unknown"})`)
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0
  if (bits < MIN_RSA_BITS) {
    throw new GatewayConfigError(`privateKeyPem is a ${bits}-bit RSA key; the gateway requires at least ${MIN_RSA_BITS} bits`)
  }
  return key
}

/** A fresh nonce: 16 random bytes as hex. */
export function oauthNonce(): string {
  return randomBytes(16).toString("hex")
}

export interface OAuthSignInput {
  method: SignatureMethod
  /** Full request URL (base URL + operation path + endpoint). */
  url: string
  /** Defaults to POST. */
  httpMethod?: string
  /** Request body parameters, already trimmed, as they will be sent. */
  params: OAuthParamList
  /** The merchant login. */
  consumerKey: string
  /** HMAC-SHA1 signing secret. */
  controlKey?: string
  /** RSA-SHA256 signing key: PEM text or an already loaded KeyObject. */
  privateKey?: string | KeyObject
  nonce: string
  /** Seconds since the epoch. */
  timestamp: number | string
}

export interface OAuthSignature {
  /** oauth_* parameters including oauth_signature, in header order. */
  oauthParams: Array<[string, string]>
  signature: string
  baseString: string
  /** The value for the `Authorization` header. */
  authorization: string
}

/** Signs a request. Pure apart from the signing itself; nonce and timestamp come from the caller. */
export function oauthSign(input: OAuthSignInput): OAuthSignature {
  const oauthParams: Array<[string, string]> = [
    ["oauth_consumer_key", input.consumerKey],
    ["oauth_nonce", input.nonce],
    ["oauth_signature_method", input.method],
    ["oauth_timestamp", String(input.timestamp)],
    ["oauth_version", "1.0"],
  ]
  const baseString = oauthBaseString(input.httpMethod ?? "POST", input.url, [...input.params, ...oauthParams])
  let signature: string
  if (input.method === "HMAC-SHA1") {
    if (!input.controlKey) throw new GatewayConfigError("controlKey is required for HMAC-SHA1 signing")
    const key = `${input.controlKey}&`
    signature = createHmac("sha1", key).update(baseString, "utf8").digest("base64")
  } else if (input.method === "RSA-SHA256") {
    if (!input.privateKey) throw new GatewayConfigError("privateKeyPem is required for RSA-SHA256 signing")
    const key = typeof input.privateKey === "string" ? loadRsaPrivateKey(input.privateKey) : input.privateKey
    signature = cryptoSign("sha256", Buffer.from(baseString, "utf8"), key).toString("base64")
  } else {
    throw new GatewayConfigError(`unsupported OAuth signature method "${String(input.method)}"`)
  }
  const signed: Array<[string, string]> = [...oauthParams, ["oauth_signature", signature]]
  return { oauthParams: signed, signature, baseString, authorization: oauthAuthorizationHeader(signed) }
}

/** `OAuth oauth_consumer_key="…", oauth_nonce="…", …` with RFC 3986-encoded values. */
export function oauthAuthorizationHeader(oauthParams: OAuthParamList): string {
  return "OAuth " + oauthParams.map(([name, value]) => `${percentEncode(name)}="${percentEncode(value)}"`).join(", ")
}

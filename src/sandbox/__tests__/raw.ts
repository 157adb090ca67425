/**
 * Test-only raw HTTP helpers for the sandbox specs: the tests' OWN control and OAuth signing (deliberately not the
 * sandbox's verifier nor src/gateway's signer), a fetch wrapper, and a legacy-format parser.
 */
import { createHash, createHmac, randomBytes, sign } from "node:crypto"
import { OPERATIONS, type OperationName } from "../../gateway/operations"
import { DEFAULT_SANDBOX_MERCHANT } from "../options"

export const LOGIN = DEFAULT_SANDBOX_MERCHANT.login
export const KEY = DEFAULT_SANDBOX_MERCHANT.controlKey
export const ENDPOINT = "1111"
export const GROUP = "2222"

export const sha1 = (s: string) => createHash("sha1").update(s).digest("hex")

/** Two-decimal currencies only (EUR/USD) — the tests write other exponents out by hand. */
export const cents = (amount: string) => {
  const [w, f = ""] = amount.split(".")
  return String(BigInt(w + f.padEnd(2, "0")))
}

export const saleControl = (endpoint: string, cid: string, amount: string, email: string) =>
  sha1(endpoint + cid + cents(amount) + email + KEY)

export const VISA = "4444555566661111"

export function saleFields(cid: string, over: Record<string, string> = {}): Record<string, string> {
  const f: Record<string, string> = {
    client_orderid: cid, order_desc: "Test order", amount: "10.42", currency: "EUR", address1: "1 Main St",
    city: "Riga", zip_code: "LV-1010", country: "LV", phone: "+37120000000", email: "payer@example.com",
    ipaddress: "127.0.0.1", card_printed_name: "JOHN DOE", credit_card_number: VISA, expire_month: "12",
    expire_year: "2099", cvv2: "123", redirect_url: "http://127.0.0.1:9/return", ...over,
  }
  if (!("control" in over)) f.control = saleControl(ENDPOINT, f.client_orderid, f.amount, f.email)
  return f
}

export function formFields(cid: string, over: Record<string, string> = {}): Record<string, string> {
  const f = saleFields(cid, over)
  for (const k of ["card_printed_name", "credit_card_number", "expire_month", "expire_year", "cvv2"]) delete f[k]
  return f
}

/** login + client_orderid + orderid [+ amount minor + currency] + key. */
export const followControl = (cid: string, orderid: string, amount?: string, currency?: string) =>
  sha1(LOGIN + cid + orderid + (amount ? cents(amount) : "") + (currency ?? "") + KEY)

export interface RawReply {
  status: number
  contentType: string
  text: string
  body: Record<string, unknown>
}

export function parseLegacy(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of new URLSearchParams(text)) out[k] = v.replace(/\n$/, "")
  return out
}

export async function call(
  base: string,
  op: OperationName,
  fields: Record<string, string>,
  o: { accept?: string | null; endpoint?: string; group?: boolean; headers?: Record<string, string>; method?: string } = {},
): Promise<RawReply> {
  const url = `${base}${OPERATIONS[op].path}/${o.group ? "group/" : ""}${o.endpoint ?? (o.group ? GROUP : ENDPOINT)}`
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", ...o.headers }
  if (o.accept !== null) headers.accept = o.accept ?? "application/vnd.pay+json"
  const res = await fetch(url, {
    method: o.method ?? "POST", headers, body: (o.method ?? "POST") === "POST" ? new URLSearchParams(fields).toString() : undefined,
  })
  const text = await res.text()
  const contentType = res.headers.get("content-type") ?? ""
  let body: Record<string, unknown> = {}
  if (contentType.includes("json")) body = JSON.parse(text) as Record<string, unknown>
  else if (contentType.startsWith("text/html")) body = parseLegacy(text)
  return { status: res.status, contentType, text, body }
}

export const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())

/** OAuth 1.0a header for a POST of `fields` to `url`. */
export function oauthHeader(
  url: string,
  fields: Record<string, string>,
  o: { method: "HMAC-SHA1" | "RSA-SHA256"; key?: string; privateKeyPem?: string; timestamp?: number; nonce?: string; consumer?: string },
): string {
  const oauth: Record<string, string> = {
    oauth_consumer_key: o.consumer ?? LOGIN,
    oauth_nonce: o.nonce ?? randomBytes(8).toString("hex"),
    oauth_signature_method: o.method,
    oauth_timestamp: String(o.timestamp ?? Math.floor(Date.now() / 1000)),
    oauth_version: "1.0",
  }
  const params = Object.entries({ ...fields, ...oauth })
    .map(([k, v]) => [rfc3986(k), rfc3986(v)])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join("&")
  const base = `POST&${rfc3986(url)}&${rfc3986(params)}`
  const signature =
    o.method === "HMAC-SHA1"
      ? createHmac("sha1", (o.key ?? KEY) + "&").update(base).digest("base64")
      : sign("sha256", Buffer.from(base), o.privateKeyPem as string).toString("base64")
  const all = { ...oauth, oauth_signature: signature }
  return "OAuth realm=\"\", " + Object.entries(all).map(([k, v]) => `${k}="${rfc3986(v)}"`).join(", ")
}

export async function callOAuth(
  base: string,
  op: OperationName,
  fields: Record<string, string>,
  o: Parameters<typeof oauthHeader>[2] & { endpoint?: string; accept?: string },
): Promise<RawReply> {
  const url = `${base}${OPERATIONS[op].path}/${o.endpoint ?? ENDPOINT}`
  return call(base, op, fields, { endpoint: o.endpoint, accept: o.accept, headers: { authorization: oauthHeader(url, fields, o) } })
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

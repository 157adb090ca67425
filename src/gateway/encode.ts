/**
 * The two encodings the wire needs.
 *
 * - RFC 3986 percent-encoding for the OAuth 1.0a signature base string and the Authorization header: only the
 *   unreserved characters A–Z a–z 0–9 - . _ ~ stay as they are; a space is %20 (never +), and ! ' ( ) * are
 *   escaped, which `encodeURIComponent` alone does not do (seed "Signing procedure", gateway notes §10).
 * - application/x-www-form-urlencoded for request bodies (as URLSearchParams writes it: space is +, & + = are
 *   escaped, which is what the gateway asks of parameter values, notes §2).
 */

const UNRESERVED = /^[A-Za-z0-9\-._~]*$/
const RFC3986_EXTRA = /[!'()*]/
const RFC3986_EXTRA_G = /[!'()*]/g

/** RFC 3986 percent-encoding of a UTF-8 string. */
export function percentEncode(value: string): string {
  // Names, ids, amounts, nonces and timestamps are mostly unreserved characters already: nothing to allocate.
  if (UNRESERVED.test(value)) return value
  const encoded = encodeURIComponent(value)
  // Most values (ids, amounts, already-encoded strings) hold none of ! ' ( ) *: skip the replace pass for them.
  return RFC3986_EXTRA.test(encoded) ? encoded.replace(RFC3986_EXTRA_G, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()) : encoded
}


/** Form-urlencoded body from name/value pairs, in the given order: byte for byte what URLSearchParams gives. */
export function formEncode(fields: Iterable<readonly [string, string]>): string {
  let out = ""
  for (const [name, value] of fields) out += (out ? "&" : "") + formComponent(name) + "=" + formComponent(value)
  return out
}

/** Characters URLSearchParams leaves as they are (WHATWG application/x-www-form-urlencoded): most ids and amounts. */
const FORM_PLAIN = /^[A-Za-z0-9*\-._]*$/
/** What encodeURIComponent leaves but the form encoding escapes, and its space. */
const FORM_EXTRA = /[!'()~]|%20/g
const FORM_EXTRA_AS: Record<string, string> = { "!": "%21", "'": "%27", "(": "%28", ")": "%29", "~": "%7E", "%20": "+" }

/**
 * One name or value, form-encoded without building a URLSearchParams (its serializer cost as much as the rest of
 * preparing a STATUS request; bench: "gateway call"). A lone surrogate, which encodeURIComponent refuses and
 * URLSearchParams turns into U+FFFD, goes through URLSearchParams itself.
 */
function formComponent(s: string): string {
  if (FORM_PLAIN.test(s)) return s
  try {
    return encodeURIComponent(s).replace(FORM_EXTRA, (c) => FORM_EXTRA_AS[c])
  } catch {
    return new URLSearchParams([["", s]]).toString().slice(1)
  }
}

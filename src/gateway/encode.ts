/**
 * The two encodings the wire needs.
 *
 * - RFC 3986 percent-encoding for the OAuth 1.0a signature base string and the Authorization header: only the
 *   unreserved characters A–Z a–z 0–9 - . _ ~ stay as they are; a space is %20 (never +), and ! ' ( ) * are
 *   escaped, which `encodeURIComponent` alone does not do (seed "Signing procedure", gateway notes §10).
 * - application/x-www-form-urlencoded for request bodies (URLSearchParams: space is +, & + = are escaped, which
 *   is what the gateway asks of parameter values, notes §2).
 */

/** RFC 3986 percent-encoding of a UTF-8 string. */
export function percentEncode(value: string): string {
  const encoded = encodeURIComponent(value)
  // Most values (ids, amounts, already-encoded strings) hold none of ! ' ( ) *: skip the replace pass for them.
  return RFC3986_EXTRA.test(encoded) ? encoded.replace(RFC3986_EXTRA_G, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()) : encoded
}

const RFC3986_EXTRA = /[!'()*]/
const RFC3986_EXTRA_G = /[!'()*]/g

/** Form-urlencoded body from name/value pairs, in the given order. */
export function formEncode(fields: Iterable<readonly [string, string]>): string {
  const params = new URLSearchParams()
  for (const [name, value] of fields) params.append(name, value)
  return params.toString()
}

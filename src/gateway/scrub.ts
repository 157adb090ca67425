/**
 * Redaction of secrets and card data before anything leaves the client as an error message or log line.
 *
 * Invariant (team brief, "Standards"): the control key, the RSA private key, a full card number (PAN) and the
 * CVV never reach logs, errors, session data or the DB. Everything the client puts into an error goes through
 * `scrub`, which
 * - masks every run of 13–19 digits (optionally split by single spaces or dashes, as card numbers are typed)
 *   to first6 + "*" + last4, the PCI DSS display format;
 * - replaces the values of sensitive keys (credit_card_number, cvv2, control, privateKey, oauth_signature, …),
 *   both in objects and in `key=value` / `"key":"value"` text;
 * - replaces literal occurrences of extra secrets passed by the caller (the client passes its control key).
 *
 * It over-masks on purpose: a long numeric order id in an error message may be masked as well. UUID-shaped gateway
 * serial numbers are the one exception (maskPan).
 */

export const REDACTED = "[redacted]"

/** Sensitive key names, compared after lowercasing and dropping `-`, `_` and spaces. */
const SENSITIVE_KEYS = new Set([
  "creditcardnumber", "cardnumber", "cardno", "pan", "destinationcardno", "sendingcardno", "sourcecardno",
  "cvv", "cvv2", "cvc", "cvc2", "securitycode",
  "control", "controlkey", "merchantcontrol", "privatekey", "privatekeypem",
  "oauthsignature", "authorization", "password", "secret",
])

const normalizeKey = (key: string): string => key.toLowerCase().replace(/[-_\s]/g, "")

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEYS.has(normalizeKey(key))
}

/** A PAN-like digit run: 13–19 digits, single space or dash allowed between digits, not inside a longer number. */
const PAN_LIKE = /(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])/g

/**
 * The gateway's serial numbers are UUID-shaped (`00000000-0000-0000-0000-0000043b64d7`, notes §3) and their digit
 * groups look like a dash-separated card number. No card number is written 8-4-4-4-12, so a UUID is kept whole:
 * a masked serial would be useless for a later STATUS by serial (`by-request-sn`).
 */
const UUID = /(?<![0-9A-Za-z-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![0-9A-Za-z-])/g

/** Masks PAN-like runs to first6 + stars + last4 (separators dropped); UUIDs (serial numbers) are left as they are. */
export function maskPan(text: string): string {
  const mask = (part: string) =>
    part.replace(PAN_LIKE, (run) => {
      const digits = run.replace(/[^\d]/g, "")
      return digits.slice(0, 6) + "*".repeat(digits.length - 10) + digits.slice(-4)
    })
  let out = ""
  let last = 0
  for (const m of text.matchAll(UUID)) {
    out += mask(text.slice(last, m.index)) + m[0]
    last = m.index! + m[0].length
  }
  return out + mask(text.slice(last))
}

/**
 * `key=value` (form bodies, query strings, log lines) and `"key": "value"` / `"key": 123` (JSON text).
 * The key may be percent-encoded as written (`destination-card-no`), so the pattern matches raw names.
 */
const KEY_VALUE_TEXT =
  /(["']?)([A-Za-z][A-Za-z0-9_\-]*)\1(\s*(?:=|:)\s*)("(?:[^"\\]|\\.)*"|'[^']*'|[^&\s,;}\]"']*)/g

/** Keys masked in objects but not in text, where `Authorization: OAuth k="v"` keeps its shape (oauth_signature is masked). */
const TEXT_EXEMPT = new Set(["authorization"])

function scrubText(text: string, secrets: readonly string[]): string {
  let out = text
  // PEM blocks first: a private key pasted anywhere disappears whole.
  out = out.replace(/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, REDACTED)
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED)
  }
  out = out.replace(KEY_VALUE_TEXT, (whole, quote: string, key: string, sep: string, value: string) => {
    if (!isSensitiveKey(key) || TEXT_EXEMPT.has(normalizeKey(key)) || value === "" || value.includes(REDACTED.slice(0, -1))) return whole
    const q = value.startsWith('"') ? '"' : value.startsWith("'") ? "'" : ""
    return `${quote}${key}${quote}${sep}${q}${REDACTED}${q}`
  })
  return maskPan(out)
}

/**
 * Returns a copy of `value` with secrets and card data removed. Strings, arrays and plain objects are walked;
 * Errors become `{ name, message }`; other values are returned as they are.
 */
export function scrub<T>(value: T, secrets: readonly string[] = []): T {
  return scrubAny(value, secrets, 0) as T
}

function scrubAny(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === "string") return scrubText(value, secrets)
  if (typeof value === "number" || typeof value === "bigint") {
    const text = String(value)
    const masked = maskPan(text)
    return masked === text ? value : masked
  }
  if (value === null || typeof value !== "object") return value
  if (depth > 8) return REDACTED
  if (Array.isArray(value)) return value.map((v) => scrubAny(v, secrets, depth + 1))
  if (value instanceof Error) {
    return { name: value.name, message: scrubText(value.message, secrets) }
  }
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[key] = isSensitiveKey(key) && v !== undefined && v !== "" ? REDACTED : scrubAny(v, secrets, depth + 1)
  }
  return out
}

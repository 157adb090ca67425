/**
 * Reading a gateway reply body into a flat record.
 *
 * Two formats exist (gateway notes §2):
 * - JSON, when the request says `Accept: application/vnd.pay+json` (what this client sends). Ids such as
 *   `paynet-order-id` may be JSON numbers; a number literal with more than 15 digits would lose precision in a
 *   double, so such literals are turned into strings before `JSON.parse` (Node 20 has no reviver source text), and
 *   the other top-level numbers into text after it: a reply's values are text in both formats.
 * - The legacy form: `key=value\n&key=value\n…` — x-www-form-urlencoded with a 0x0A after every value. Every
 *   value is trimmed and percent-decoded exactly once (the `html` 3DS form arrives encoded once; decoding it
 *   twice corrupts it — php-library commit d36c0c9).
 *
 * Unknown keys are kept. An unreadable body → GatewayProtocolError.
 */
import { GatewayProtocolError } from "./errors"

/** More digits than a double holds exactly (2^53 has 16 digits; 15 are always safe). */
const MAX_SAFE_DIGITS = 15
/**
 * Where a long literal could start: JSON puts a number only at the start of the text or after `:`, `[` or `,` (and
 * whitespace). Anchoring there keeps the usual reply on the fast path: its UUID serial-number is a long run of digits
 * and dashes too, but inside a string, after a `"`.
 */
const LONG_LITERAL = new RegExp(`[:\\[,]\\s*-?[0-9][0-9eE.+\\-]{${MAX_SAFE_DIGITS}}`)
/** The same at the start of the text, tested apart: an `^` alternative in LONG_LITERAL makes every position costlier. */
const LONG_LITERAL_AT_START = new RegExp(`^\\s*-?[0-9][0-9eE.+\\-]{${MAX_SAFE_DIGITS}}`)
/** One token at a time: a string literal (copied as it is) or a number-like run starting with `-` or a digit. */
const TOKEN = /"(?:[^"\\]|\\[\s\S])*"?|[-0-9][0-9eE.+\-]*/g
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/

function quoteIfLong(token: string): string {
  if (token[0] === '"' || !PLAIN_DECIMAL.test(token)) return token
  const digits = token.replace(/[^0-9]/g, "").replace(/^0+(?=\d)/, "")
  return digits.length > MAX_SAFE_DIGITS ? `"${token}"` : token
}

/**
 * Rewrites number literals with more than 15 digits into JSON strings, leaving everything inside strings
 * untouched. `{"id":12345678901234567890}` → `{"id":"12345678901234567890"}`.
 */
export function quoteLongNumbers(json: string): string {
  // Fast path: no place where a number may stand is followed by a run long enough to hold more than 15 digits.
  if (!LONG_LITERAL_AT_START.test(json) && !LONG_LITERAL.test(json)) return json
  return json.replace(TOKEN, quoteIfLong)
}

/** quoteLongNumbers for a text that starts with `{` or `[` (a reply body, trimmed): no number can stand at its start. */
function quoteLongNumbersInside(json: string): string {
  return LONG_LITERAL.test(json) ? json.replace(TOKEN, quoteIfLong) : json
}

/** JSON.parse that keeps long number literals exact (as strings). */
export function parseJsonExact(text: string): unknown {
  return JSON.parse(quoteLongNumbers(text))
}

/** Legacy `key=value\n&key=value\n` body: decoded once, keys and values trimmed, last duplicate wins. */
export function parseFormBody(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of new URLSearchParams(text.trim())) {
    const name = key.trim()
    if (name) out[name] = value.trim()
  }
  return out
}

/**
 * A JSON reply's top-level numbers as text, so both formats give the same record: `"end-point-id":22903` reads as
 * "22903", like the legacy form's `end-point-id=22903`. Long literals are text already (quoteLongNumbers); a short one
 * prints as JavaScript prints the double (`10.40` → "10.4", the same amount). Nested values are left as they are.
 */
function numbersAsText(record: Record<string, unknown>): Record<string, unknown> {
  for (const key in record) {
    const value = record[key]
    if (typeof value === "number") record[key] = String(value)
  }
  return record
}

const NOT_JSON = Symbol("not JSON")

/** Where a reply that is a JSON list (get-balance, operations.ts `balanceResponse`) keeps its items; its numbers stay as parsed. */
export const LIST_KEY = "balance-list"

/** Whether a parsed JSON value holds a number anywhere (the only place a long literal can have lost digits). */
function holdsNumber(value: unknown, depth = 0): boolean {
  if (typeof value === "number") return true
  if (value === null || typeof value !== "object") return false
  // deeper than any reply nests: assume a number, so the text is read the careful way
  if (depth > 32) return true
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (holdsNumber(value[i], depth + 1)) return true
    return false
  }
  for (const key in value) if (holdsNumber((value as Record<string, unknown>)[key], depth + 1)) return true
  return false
}

/**
 * A reply that is a JSON list of records (get-balance's documented reply, `[{"balance-amount":29.99}]`): kept whole
 * under LIST_KEY, every number literal read as its exact text ("100.00" stays "100.00", never a double), since such a
 * list carries money. Anything else that starts with `[` is not a reply.
 */
function parseList(body: string): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = JSON.parse(body.replace(TOKEN, (t) => (t[0] === '"' || !PLAIN_DECIMAL.test(t) ? t : `"${t}"`)))
  } catch {
    throw new GatewayProtocolError("reply is not valid JSON")
  }
  if (!Array.isArray(parsed) || !parsed.every((e) => e !== null && typeof e === "object" && !Array.isArray(e))) {
    throw new GatewayProtocolError("JSON reply is not an object")
  }
  return { [LIST_KEY]: parsed }
}

/**
 * Parses a reply body in either format. JSON is recognised by its first non-blank character (`{`), whatever
 * the Content-Type says (the legacy format comes as text/html). Throws GatewayProtocolError when unreadable.
 */
export function parseGatewayBody(text: string): Record<string, unknown> {
  const body = text.trim()
  if (body === "") throw new GatewayProtocolError("empty reply body")
  if (body.startsWith("[")) return parseList(body)
  if (body.startsWith("{")) {
    // Parsed as it is first: a reply without a number in it (every value text, as the gateway usually sends) has no
    // long literal to quote, and scanning the text for one cost a third of JSON.parse's time (bench "gateway call").
    // With a number anywhere, or text JSON.parse refuses (a quoted long literal may make it valid: 0123…), the text is
    // parsed as before, long literals quoted.
    let parsed: unknown = NOT_JSON
    try {
      parsed = JSON.parse(body)
    } catch {
      // read again below
    }
    if (parsed === NOT_JSON || holdsNumber(parsed)) {
      try {
        parsed = JSON.parse(quoteLongNumbersInside(body))
      } catch {
        throw new GatewayProtocolError("reply is not valid JSON")
      }
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new GatewayProtocolError("JSON reply is not an object")
    }
    return numbersAsText(parsed as Record<string, unknown>)
  }
  if (body.startsWith("<")) throw new GatewayProtocolError("reply is HTML, not a gateway response")
  const form = parseFormBody(body)
  if (Object.keys(form).length === 0 || !body.includes("=")) {
    throw new GatewayProtocolError("reply is neither JSON nor key=value form data")
  }
  return form
}

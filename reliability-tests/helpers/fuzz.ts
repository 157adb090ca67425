/**
 * fast-check arbitraries for hostile HTTP input, and a small concurrent sender. Inputs are drawn with `fc.sample` (a
 * fixed, printed seed, so a failure can be replayed) and sent a few at a time: the point is many inputs per route
 * within the tier's time budget, and each failure is reported with the exact input.
 */
import fc from "fast-check"
import { Agent, request, type Dispatcher } from "undici"

/** Strings that have broken parsers before: empty, prototype keys, qs syntax, huge numbers, control bytes. */
const NASTY = [
  "", " ", "null", "undefined", "true", "[]", "{}", "__proto__", "constructor", "prototype", "toString", "%", "%00",
  "%zz", "\u0000", "\uffff", "\ud800", "a[b]=c", "1e309", "-1", "0", "-0", "NaN", "Infinity", "0x10", "1.000000001",
  "9".repeat(400), "<script>alert(1)</script>", "' or 1=1--", "../../etc/passwd", "😀".repeat(30), "a".repeat(5000),
]

export const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 1, arbitrary: fc.stringMatching(/^[0-9]{1,25}(\.[0-9]{0,6})?$/) }
)

/** A parameter name: one of the route's known names (plain, or in qs array/object syntax) or anything. */
export function paramName(known: readonly string[]) {
  const k = fc.constantFrom(...known)
  return fc.oneof(
    { weight: 4, arbitrary: k },
    { weight: 1, arbitrary: k.map((n) => `${n}[]`) },
    { weight: 1, arbitrary: fc.tuple(k, fc.constantFrom("a", "0", "__proto__", "$gt")).map(([n, s]) => `${n}[${s}]`) },
    { weight: 1, arbitrary: fc.constantFrom("__proto__[x]", "constructor[prototype][x]", "fields", "expand", "order") },
    { weight: 1, arbitrary: nastyString }
  )
}

/** encodeURIComponent that survives lone surrogates (they become U+FFFD, as a browser would send them). */
export function enc(s: string): string {
  try {
    return encodeURIComponent(s)
  } catch {
    return encodeURIComponent(s.replace(/[\ud800-\udfff]/g, "\ufffd"))
  }
}

/** A raw query / form string: known or random names, nasty values, sometimes left un-encoded. */
export function formString(known: readonly string[]) {
  return fc
    .tuple(fc.array(fc.tuple(paramName(known), nastyString), { maxLength: 12 }), fc.boolean())
    .map(([pairs, raw]) =>
      pairs.map(([k, v]) => (raw ? `${k}=${v}` : `${enc(k)}=${enc(v)}`)).join("&")
    )
}

/** A JSON-ish value: anything JSON can carry, with nasty strings. */
export const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    nastyString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(nastyString, tie("value"), { maxKeys: 5 })
  ),
})).value

/**
 * A near-valid object: `valid` with one field replaced by a hostile value (or a `required` one removed). `broken` lists, per field, values the route must refuse; the result is always refusable by construction.
 */
export function brokenFrom<T extends Record<string, unknown>>(
  valid: T,
  broken: Partial<Record<keyof T, unknown[]>>,
  required: (keyof T)[] = Object.keys(broken) as (keyof T)[]
) {
  const fields = Object.keys(broken) as (keyof T)[]
  return fc.oneof(
    fc.tuple(fc.constantFrom(...fields), fc.nat()).map(([f, i]) => {
      const choices = broken[f] as unknown[]
      return { ...valid, [f]: choices[i % choices.length] }
    }),
    fc.constantFrom(...required).map((f) => {
      const copy = { ...valid }
      delete copy[f]
      return copy
    })
  )
}

export interface HttpInput {
  method: string
  path: string
  headers?: Record<string, string>
  body?: string
}

export interface HttpResult {
  input: HttpInput
  status: number
  text: string
}

/**
 * Sends every input (at most `concurrency` in flight, on kept-alive connections); a transport error is recorded as
 * status 0. undici's `request`, not `fetch`: the same client underneath without the WHATWG Request/Response and stream
 * objects, which cost about 0.3-0.5 ms of CPU a request (measured beside a bare server, 2026-11-28) — tens of
 * thousands of inputs a run, all on the CPU the app under test needs (issue 38).
 */
export async function sendAll(base: string, inputs: HttpInput[], concurrency = 4): Promise<HttpResult[]> {
  const out: HttpResult[] = new Array(inputs.length)
  const dispatcher = new Agent({ connections: concurrency })
  let next = 0
  const worker = async () => {
    while (next < inputs.length) {
      const i = next++
      const input = inputs[i]
      try {
        const res = await request(`${base}${input.path}`, {
          method: input.method as Dispatcher.HttpMethod,
          headers: input.headers,
          body: input.body,
          dispatcher,
        })
        out[i] = { input, status: res.statusCode, text: await res.body.text() }
      } catch (e) {
        out[i] = { input, status: 0, text: String((e as Error)?.message ?? e) }
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: concurrency }, worker))
  } finally {
    await dispatcher.close()
  }
  return out
}

/**
 * The short cuts the benchmarks asked for (bench: gateway call, signing) change speed, never results:
 * - quoteLongNumbers skips its rewrite only when no literal can have more than 15 digits;
 * - percentEncode skips its second pass only when none of ! ' ( ) * is present;
 * - formEncode writes exactly what URLSearchParams writes, without building one;
 * - safeParseLoose gives what a looseObject schema gives (data and issues), through a faster z.object, or for the
 *   reply schemas through a check read off the shape (same keys, same order, statuses mapped);
 * - normalizeOAuthUrl remembers the last URL and still answers each URL for itself;
 * - control terms concatenated in a loop give the same checksum as the formula, read from a record or a Map.
 */
import { createHash } from "node:crypto"
import fc from "fast-check"
import { z } from "zod"
import { computeControl } from "../control"
import { formEncode, percentEncode } from "../encode"
import { normalizeOAuthUrl } from "../oauth"
import { OPERATIONS, type OperationSpec } from "../operations"
import { quoteLongNumbers } from "../parse"
import { safeParseLoose } from "../loose-object"
import { sessionDataSchema } from "../../core/checkout/session-data"

describe("quoteLongNumbers fast path", () => {
  it.each([
    ['{"id":1234567890123456}', '{"id":"1234567890123456"}'],
    ['{"x":1234567.123456789012}', '{"x":"1234567.123456789012"}'],
    ['{"y":-1234567890123456}', '{"y":"-1234567890123456"}'],
    ['{"z":123456789012345}', '{"z":123456789012345}'],
    ['{"a":"10.42","b":123,"c":"12345678901234567890"}', '{"a":"10.42","b":123,"c":"12345678901234567890"}'],
  ])("%s → %s", (input, expected) => {
    expect(quoteLongNumbers(input)).toBe(expected)
  })

  it("keeps every integer exact, whatever its length (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }), { maxLength: 6 }), (values) => {
        const json = `{${values.map((v, i) => `"k${i}":${v}`).join(",")}}`
        const parsed = JSON.parse(quoteLongNumbers(json)) as Record<string, unknown>
        values.forEach((v, i) => {
          const digits = (v < 0n ? -v : v).toString().length
          expect(parsed[`k${i}`]).toEqual(digits > 15 ? v.toString() : Number(v))
        })
      })
    )
  })
})

/** The character-by-character rewrite quoteLongNumbers replaced: the oracle its faster form must agree with. */
function quoteLongNumbersByChars(json: string): string {
  let out = ""
  let i = 0
  while (i < json.length) {
    const c = json[i]
    if (c === '"') {
      let j = i + 1
      while (j < json.length && json[j] !== '"') j += json[j] === "\\" ? 2 : 1
      out += json.slice(i, j + 1)
      i = j + 1
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      let j = i + 1
      while (j < json.length && /[0-9eE.+\-]/.test(json[j])) j++
      const literal = json.slice(i, j)
      const digits = literal.replace(/[eE][+\-]?\d+$/, "").replace(/[^0-9]/g, "").replace(/^0+(?=\d)/, "")
      out += digits.length > 15 && /^-?\d+(\.\d+)?$/.test(literal) ? `"${literal}"` : literal
      i = j
    } else {
      out += c
      i++
    }
  }
  return out
}

describe("quoteLongNumbers agrees with the character-by-character rewrite", () => {
  it("on a STATUS reply whose UUID serial-number is a long digit-and-dash run inside a string", () => {
    const reply = '{"type":"status-response","status":"approved","serial-number":"00000000-0000-0000-0000-000000000001","paynet-order-id":12345678901234567890,"phone":"+49301234567"}'
    expect(quoteLongNumbers(reply)).toBe(quoteLongNumbersByChars(reply))
    expect(quoteLongNumbers(reply)).toContain('"paynet-order-id":"12345678901234567890"')
  })

  it("on random JSON with long integers, decimals, exponents and digit-heavy strings (property)", () => {
    const long = fc.oneof(
      fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }).map(String),
      fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: 10n ** 12n })).map(([a, b]) => `${a}.${b}`),
      fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: -30, max: 30 })).map(([a, e]) => `${a}e${e}`),
    )
    const value = fc.oneof(long, fc.uuid().map((u) => JSON.stringify(u)), fc.string().map((s) => JSON.stringify(s)), fc.json())
    fc.assert(
      fc.property(fc.array(value, { maxLength: 6 }), fc.boolean(), (values, asArray) => {
        const json = asArray ? `[${values.join(" , ")}]` : `{${values.map((v, i) => `"k${i}": ${v}`).join(",")}}`
        expect(quoteLongNumbers(json)).toBe(quoteLongNumbersByChars(json))
      })
    )
  })
})

describe("percentEncode fast path", () => {
  it("escapes ! ' ( ) * (RFC 3986) and leaves plain values as encodeURIComponent has them", () => {
    expect(percentEncode("a!b'c(d)e*f")).toBe("a%21b%27c%28d%29e%2Af")
    expect(percentEncode("Jane Doe+x@y.com")).toBe("Jane%20Doe%2Bx%40y.com")
    expect(percentEncode("payses_01ABC-._~")).toBe("payses_01ABC-._~")
  })
})

describe("formEncode", () => {
  it("writes what URLSearchParams writes, for any names and values (property, lone surrogates included)", () => {
    const text = fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme-ascii" }), fc.constantFrom("a b", "!'()~*-._", "x+y=z&w", "Jane Doe", ""))
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { maxLength: 8 }), (pairs) => {
        expect(formEncode(pairs)).toBe(new URLSearchParams(pairs).toString())
      }),
      { numRuns: 150 }
    )
  })
})

describe("safeParseLoose", () => {
  it("gives every reply schema's and the session data's result: same data, unknown keys kept, same issues (property)", () => {
    const schemas: Array<z.ZodType<Record<string, unknown>>> = [...Object.values(OPERATIONS).map((s) => s.response), sessionDataSchema]
    const value = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constantFrom("approved", "declined", "status-response", "async-response"))
    fc.assert(
      fc.property(fc.constantFrom(...schemas), fc.dictionary(fc.string({ maxLength: 16 }), value, { maxKeys: 6 }), fc.nat(), (schema, extra, seed) => {
        const shapeKeys = Object.keys((schema as unknown as { shape: Record<string, unknown> }).shape)
        const known = Object.fromEntries(shapeKeys.filter((_, i) => (seed >> (i % 30)) & 1).map((k, i) => [k, i % 3 === 0 ? 7 : `v${i}`]))
        const input = { ...extra, ...known, type: seed % 5 === 0 ? "nonsense" : (extra.type ?? known.type) }
        const expected = schema.safeParse(input)
        const actual = safeParseLoose(schema, input)
        expect(actual.success).toBe(expected.success)
        if (expected.success && actual.success) expect(actual.data).toEqual(expected.data)
        else expect(actual.error?.issues).toEqual(expected.error?.issues)
      }),
      { numRuns: 500 }
    )
  })
})

describe("safeParseLoose on replies its shape check decides without zod", () => {
  const replySchemas = [...new Set(Object.values(OPERATIONS).map((s) => s.response))] as unknown as Array<z.ZodObject>
  /** The literal of the schema's `type` key, where it has one (else any text passes). */
  const typeOf = (schema: z.ZodObject) => (schema.shape as Record<string, { def: { values?: unknown[] } }>).type.def.values?.[0] ?? "any-response"
  const field = fc.oneof(
    { weight: 6, arbitrary: fc.string({ maxLength: 10 }) },
    { weight: 2, arbitrary: fc.constantFrom("approved", " Declined ", "PROCESSING", "weird", "") },
    { weight: 1, arbitrary: fc.constantFrom(undefined, 7, null, true) },
  )

  it("accepts, rejects and writes exactly as the schema does, in place or copied: the same keys, in the same order, statuses mapped (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...replySchemas), fc.nat(), fc.dictionary(fc.string({ maxLength: 12 }), field, { maxKeys: 4 }), fc.array(field, { minLength: 20, maxLength: 20 }), (schema, seed, extra, values) => {
        const keys = Object.keys(schema.shape)
        // Not "__proto__": zod's catchall assigns unknown keys (so that one would set a prototype and vanish), while
        // safeParseLoose keeps a reply's own keys as JSON.parse made them, on either path (it always did).
        const input: Record<string, unknown> = {}
        for (const [k, v] of Object.entries(extra)) if (k !== "__proto__") input[k] = v
        keys.forEach((k, i) => {
          if ((seed >> (i % 28)) & 1) input[k] = values[i % values.length]
        })
        // mostly the schema's own type, so most records pass: the path this test is about
        input.type = seed % 7 === 0 ? "nonsense" : seed % 11 === 0 ? undefined : typeOf(schema)
        const expected = schema.safeParse({ ...input })
        const copied = safeParseLoose(schema as z.ZodType<Record<string, unknown>>, input)
        const own = { ...input }
        const inPlace = safeParseLoose(schema as z.ZodType<Record<string, unknown>>, own, true)
        for (const actual of [copied, inPlace]) {
          expect(actual.success).toBe(expected.success)
          if (expected.success && actual.success) {
            expect(actual.data).toStrictEqual(expected.data)
            expect(Object.keys(actual.data)).toEqual(Object.keys(input))
          } else expect(actual.error?.issues).toEqual(expected.error?.issues)
        }
        if (inPlace.success) expect(inPlace.data).toBe(own)
        if (copied.success) expect(copied.data).not.toBe(input)
      }),
      { numRuns: 1000 }
    )
  })
})

describe("normalizeOAuthUrl memo", () => {
  it("answers each URL for itself when two alternate", () => {
    const a = "HTTPS://Gate.Example:443/paynet/api/v4/payout/1111"
    const b = "http://127.0.0.1:4010/paynet/api/v4/payout/2222?q=1"
    for (let i = 0; i < 3; i++) {
      expect(normalizeOAuthUrl(a)).toBe("https://gate.example/paynet/api/v4/payout/1111")
      expect(normalizeOAuthUrl(b)).toBe("http://127.0.0.1:4010/paynet/api/v4/payout/2222")
    }
  })
})

describe("computeControl", () => {
  it("STATUS: sha1(login + client_orderid + orderid + key), values trimmed", () => {
    const key = "B17F59B4-A7DC-41B4-8FF9-37D986B43D20"
    const expected = createHash("sha1").update(`merchant` + `order-1` + `9001` + key).digest("hex")
    expect(computeControl(OPERATIONS.STATUS.control ?? [], { client_orderid: " order-1 ", orderid: "9001" }, { endpoint: "1111", login: "merchant", controlKey: key })).toBe(expected)
  })
  it("reads a Map of fields (prepareRequest's) as it reads the same record: every operation's terms", () => {
    const ctx = { endpoint: "1111", login: "merchant", controlKey: "B17F59B4-A7DC-41B4-8FF9-37D986B43D20" }
    const record = { client_orderid: " order-1 ", orderid: "9001", amount: "10.42", currency: "EUR", email: "a@b.c", "destination-card-no": "4444555566661111", cardrefid: "77", "card-ref-id": "77", address1: "x" }
    for (const spec of Object.values(OPERATIONS) as OperationSpec[]) {
      if (!spec.control) continue
      expect(computeControl(spec.control, new Map(Object.entries(record)), ctx)).toBe(computeControl(spec.control, record, ctx))
    }
    expect(computeControl(OPERATIONS.SALE.control ?? [], new Map([["client_orderid", "o"], ["amount", "1.00"], ["currency", "EUR"], ["email", "e"]]), ctx)).toBe(
      createHash("sha1").update("1111" + "o" + "100" + "e" + ctx.controlKey).digest("hex"),
    )
  })
})

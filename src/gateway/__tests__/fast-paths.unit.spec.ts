/**
 * The short cuts the benchmarks asked for (bench: gateway call, signing) change speed, never results:
 * - quoteLongNumbers skips its rewrite only when no literal can have more than 15 digits;
 * - percentEncode skips its second pass only when none of ! ' ( ) * is present;
 * - formEncode writes exactly what URLSearchParams writes, without building one;
 * - safeParseLoose gives what a looseObject schema gives (data and issues), through a faster z.object;
 * - normalizeOAuthUrl remembers the last URL and still answers each URL for itself;
 * - control terms concatenated in a loop give the same checksum as the formula.
 */
import { createHash } from "node:crypto"
import fc from "fast-check"
import { z } from "zod"
import { computeControl } from "../control"
import { formEncode, percentEncode } from "../encode"
import { normalizeOAuthUrl } from "../oauth"
import { OPERATIONS } from "../operations"
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
})

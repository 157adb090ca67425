/**
 * Money: decimal strings <-> bigint minor units by ISO 4217 exponent. Known cases (including the float traps of
 * gateway notes §6.4) and fast-check round trips for 0-, 2- and 3-decimal currencies.
 */
import fc from "fast-check"
import { GatewayInputError } from "../errors"
import { currencyExponent, fromMinorUnits, normalizeAmount, toMinorUnits } from "../money"

function inputError(fn: () => unknown): GatewayInputError {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayInputError)
    return e as GatewayInputError
  }
  throw new Error("expected a GatewayInputError")
}

describe("currencyExponent", () => {
  it("reads ISO 4217 exponents, case-insensitively", () => {
    expect(currencyExponent("EUR")).toBe(2)
    expect(currencyExponent("jpy")).toBe(0)
    expect(currencyExponent("KWD")).toBe(3)
    expect(currencyExponent("bhd")).toBe(3)
    expect(currencyExponent("CLF")).toBe(4)
  })
  it("refuses unknown codes naming the currency field", () => {
    for (const bad of ["XYZ", "EURO", "", "12"]) expect(inputError(() => currencyExponent(bad)).field).toBe("currency")
  })
})

describe("toMinorUnits", () => {
  it.each([
    ["10.42", "EUR", 1042n],
    ["1000", "JPY", 1000n],
    ["1.234", "KWD", 1234n],
    ["0.29", "EUR", 29n],
    ["0.94", "USD", 94n],
    ["10.15", "USD", 1015n],
    ["2.675", "KWD", 2675n],
    ["0.005", "KWD", 5n],
    ["0.57", "EUR", 57n],
    ["1.1", "EUR", 110n],
    ["10", "EUR", 1000n],
    ["0", "EUR", 0n],
    ["10.420", "EUR", 1042n],
    ["1000.00", "JPY", 1000n],
    ["007.50", "EUR", 750n],
    ["99999999999999999.99", "EUR", 9999999999999999999n],
  ])("%s %s → %s", (amount, currency, expected) => {
    expect(toMinorUnits(amount, currency)).toBe(expected)
  })

  it("does what float math gets wrong (0.29 * 100 = 28.999…)", () => {
    expect(Math.trunc(0.29 * 100)).toBe(28)
    expect(toMinorUnits("0.29", "EUR")).toBe(29n)
    expect(toMinorUnits("2.675", "BHD")).toBe(2675n)
  })

  it.each([
    ["10.5", "JPY"],
    ["1.2345", "KWD"],
    ["10.421", "EUR"],
    ["2.675", "EUR"],
    ["1.005", "USD"],
    ["-1.00", "EUR"],
    ["1e3", "EUR"],
    ["1,00", "EUR"],
    ["1,000.00", "EUR"],
    ["", "EUR"],
    [" ", "EUR"],
    [".5", "EUR"],
    ["5.", "EUR"],
    ["+5", "EUR"],
    ["0x10", "EUR"],
    ["1 000", "EUR"],
    ["NaN", "EUR"],
    ["Infinity", "EUR"],
  ])("refuses %j %s naming the amount field", (amount, currency) => {
    expect(inputError(() => toMinorUnits(amount, currency)).field).toBe("amount")
  })
})

describe("fromMinorUnits / normalizeAmount", () => {
  it.each([
    [1042n, "EUR", "10.42"],
    [1000n, "JPY", "1000"],
    [1234n, "KWD", "1.234"],
    [5n, "KWD", "0.005"],
    [0n, "EUR", "0.00"],
    [7n, "EUR", "0.07"],
  ])("%s %s → %s", (minor, currency, expected) => {
    expect(fromMinorUnits(minor, currency)).toBe(expected)
  })
  it("refuses negative minor units", () => {
    expect(inputError(() => fromMinorUnits(-1n, "EUR")).field).toBe("amount")
  })
  it("normalizes to exactly the exponent's decimals", () => {
    expect(normalizeAmount("10.4", "EUR")).toBe("10.40")
    expect(normalizeAmount("10.420", "EUR")).toBe("10.42")
    expect(normalizeAmount("1000.0", "JPY")).toBe("1000")
    expect(normalizeAmount("1.2", "KWD")).toBe("1.200")
    expect(normalizeAmount(" 10.42 ", "eur")).toBe("10.42")
  })
})

describe("properties", () => {
  const currencies = fc.constantFrom("JPY", "EUR", "USD", "KWD", "BHD", "CLF")
  it("toMinorUnits(fromMinorUnits(n)) == n", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), currencies, (n, currency) => {
        expect(toMinorUnits(fromMinorUnits(n, currency), currency)).toBe(n)
      }),
    )
  })
  it("fromMinorUnits has exactly `exponent` decimals and normalizeAmount is idempotent", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), currencies, (n, currency) => {
        const text = fromMinorUnits(n, currency)
        const exponent = currencyExponent(currency)
        expect(text).toMatch(exponent === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${exponent}}$`))
        expect(normalizeAmount(text, currency)).toBe(text)
      }),
    )
  })
  it("trailing zeros never change the value; an extra non-zero digit is always refused", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        currencies,
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 9 }),
        (n, currency, zeros, digit) => {
          const text = fromMinorUnits(n, currency)
          const padded = (text.includes(".") ? text : text + ".") + "0".repeat(zeros)
          expect(toMinorUnits(padded, currency)).toBe(n)
          const tooPrecise = (text.includes(".") ? text : text + ".") + String(digit)
          expect(() => toMinorUnits(tooPrecise, currency)).toThrow(GatewayInputError)
        },
      ),
    )
  })
  it("agrees with an independent cents computation for 2-decimal amounts", () => {
    fc.assert(
      fc.property(fc.nat({ max: 10_000_000 }), fc.nat({ max: 99 }), (units, cents) => {
        const text = `${units}.${String(cents).padStart(2, "0")}`
        expect(toMinorUnits(text, "EUR")).toBe(BigInt(units * 100 + cents))
      }),
    )
  })
})

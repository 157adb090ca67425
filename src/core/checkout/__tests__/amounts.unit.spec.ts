import { BigNumber } from "@medusajs/framework/utils"
import { decimalText, toGatewayAmount, toGatewayCurrency, toMinor, exactMinor, rowsMinor, signedMinor } from "../amounts"

describe("Medusa amount shapes → gateway amount", () => {
  it.each([
    [10.42, "eur", "10.42"],
    [0.29, "eur", "0.29"],
    [1.005, "usd", "1.01"],
    ["10.4", "EUR", "10.40"],
    ["10", "usd", "10.00"],
    [{ value: "12.5", precision: 20 }, "eur", "12.50"],
    [{ value: "12.50000000000000000000", precision: 20 }, "eur", "12.50"],
    [new BigNumber("33.33"), "eur", "33.33"],
    [new BigNumber({ value: "7.1", precision: 20 }), "usd", "7.10"],
    [new BigNumber(99.99), "usd", "99.99"],
    [1000, "jpy", "1000"],
    ["1500", "jpy", "1500"],
    [{ value: "1500", precision: 20 }, "jpy", "1500"],
    [1234.5, "jpy", "1235"],
    [1.234, "kwd", "1.234"],
    [{ value: "12.5", precision: 20 }, "kwd", "12.500"],
    ["0.001", "kwd", "0.001"],
    ["19.9995", "kwd", "20.000"],
    [1e21, "usd", "1000000000000000000000.00"],
  ] as const)("%j %s → %s", (input, currency, out) => {
    expect(toGatewayAmount(input as any, currency)).toBe(out)
  })

  it("minor units are integers, never floats", () => {
    expect(toMinor(0.29, "eur")).toBe(29n)
    expect(toMinor({ value: "1.234", precision: 20 }, "kwd")).toBe(1234n)
    expect(toMinor("1000", "jpy")).toBe(1000n)
  })

  it("reads the exact decimal text, not the float", () => {
    expect(decimalText({ value: "0.1000000000000000055511151231257827", precision: 40 })).toBe("0.1000000000000000055511151231257827")
  })

  it.each([["abc"], [NaN], [{ value: "x" }], [-5]])("rejects %j", (bad) => {
    expect(() => toGatewayAmount(bad as any, "eur")).toThrow()
  })

  it("currency codes: upper case, ISO 4217 only", () => {
    expect(toGatewayCurrency("eur")).toBe("EUR")
    expect(() => toGatewayCurrency("xyz")).toThrow()
  })
})

describe("toMinor's integer fast path agrees with BigNumber", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fc = require("fast-check") as typeof import("fast-check")
  it("for every plain decimal string, in every exponent (0, 2, 3), the same minor units as the BigNumber path", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 4 }), fc.constantFrom("jpy", "eur", "kwd"), (units, decimals, currency) => {
        const digits = units.toString().padStart(decimals + 1, "0")
        const text = decimals ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits
        // the BigNumber path, reached through a BigNumber shape (never the fast path)
        expect(toMinor(text, currency)).toBe(toMinor({ value: text, precision: 20 }, currency))
      }),
      { numRuns: 2000 }
    )
  })
})

describe("signed, summed and typed amounts (one rule each, used by cancel, refund room and rebill)", () => {
  it("signedMinor keeps the sign of a summary's difference", () => {
    expect(signedMinor("-3", "eur")).toBe(-300n)
    expect(signedMinor({ value: "-10.42", precision: 20 } as never, "eur")).toBe(-1042n)
    expect(signedMinor("1.234", "kwd")).toBe(1234n)
    expect(signedMinor(null, "eur")).toBe(0n)
  })

  it("rowsMinor sums raw amounts before amounts, exactly, and no rows is zero", () => {
    expect(rowsMinor([{ raw_amount: { value: "0.1", precision: 20 }, amount: 999 }, { amount: "0.2" }], "eur")).toBe(30n)
    expect(rowsMinor(undefined, "eur")).toBe(0n)
    expect(rowsMinor([{ amount: "5" }, { amount: "7" }], "jpy")).toBe(12n)
  })

  it("exactMinor refuses a negative amount, too many decimals for the currency, or no number at all; never rounds", () => {
    expect(exactMinor("10.40", "eur")).toBe(1040n)
    expect(exactMinor(5, "jpy")).toBe(5n)
    expect(() => exactMinor("10.001", "eur")).toThrow(/at most 2 decimals in EUR/)
    expect(() => exactMinor("1.5", "jpy")).toThrow(/at most 0 decimals in JPY/)
    expect(() => exactMinor("-1", "eur")).toThrow(/must be positive/)
    expect(() => exactMinor("ten", "eur")).toThrow(/must be a decimal number/)
    expect(exactMinor("1.2340", "kwd")).toBe(1234n)
  })
})

import { paysAStaleAmount } from "../stale-amount"

describe("paysAStaleAmount", () => {
  it("is stale when the collection now asks another amount, exactly in minor units", () => {
    expect(paysAStaleAmount("10.42", "20.84", "EUR")).toBe(true)
    expect(paysAStaleAmount("10.42", { value: "10.43", precision: 20 }, "EUR")).toBe(true)
    expect(paysAStaleAmount("1000", "999", "JPY")).toBe(true)
  })
  it("is not stale at the same amount, however Medusa writes it", () => {
    expect(paysAStaleAmount("10.42", "10.420000000000000000", "EUR")).toBe(false)
    expect(paysAStaleAmount("10.42", { value: "10.42", precision: 20 }, "EUR")).toBe(false)
    expect(paysAStaleAmount("10.42", 10.42, "EUR")).toBe(false)
    expect(paysAStaleAmount("1.234", "1.234", "KWD")).toBe(false)
  })
  it("decides nothing on what cannot be read", () => {
    expect(paysAStaleAmount(undefined, "10.42", "EUR")).toBe(false)
    expect(paysAStaleAmount("10.42", undefined, "EUR")).toBe(false)
    expect(paysAStaleAmount("ten", "10.42", "EUR")).toBe(false)
  })
})

/**
 * The sandbox's own control and minor-unit code against published vectors (notes §6.1, §6.3) and properties.
 */
import fc from "fast-check"
import { OPERATIONS } from "../../gateway/operations"
import { callbackControl, expectedControl } from "../control-sum"
import { fromMinor, toMinor } from "../money"

const KEY = "B17F59B4-A7DC-41B4-8FF9-37D986B43D20"

it("reproduces the docs' sale example (notes §6.1)", () => {
  const r = expectedControl(
    OPERATIONS.SALE.control,
    { client_orderid: "902B4FF5", amount: "10.42", currency: "USD", email: "john.smith@gmail.com" },
    { endpointId: "1111", login: "unused", controlKey: KEY },
  )
  expect(r).toEqual({ ok: true, expected: "c6bdd88a78834ef4b863b088827a459f039e8257" })
})

it("reproduces the vendor's callback vector (notes §6.3)", () => {
  expect(callbackControl("approved", "1234567", "hf-abc", "test-merchant-control")).toBe("652ace404c4dfe8bba069ecee594ec23a89340e1")
})

it("leaves amount and currency out of a capture control when no amount is sent", () => {
  const withAmount = expectedControl(OPERATIONS.CAPTURE.control, { client_orderid: "c", orderid: "1", amount: "1.00", currency: "EUR" }, { endpointId: "1", login: "l", controlKey: "k" })
  const without = expectedControl(OPERATIONS.CAPTURE.control, { client_orderid: "c", orderid: "1" }, { endpointId: "1", login: "l", controlKey: "k" })
  expect(withAmount.ok && without.ok && withAmount.expected !== without.expected).toBe(true)
})

it("converts the float traps exactly (0.29, 10.15, 0.94)", () => {
  expect(toMinor("0.29", "EUR")).toEqual({ ok: true, minor: 29n })
  expect(toMinor("10.15", "USD")).toEqual({ ok: true, minor: 1015n })
  expect(toMinor("0.94", "USD")).toEqual({ ok: true, minor: 94n })
  expect(toMinor("10.420", "EUR")).toEqual({ ok: true, minor: 1042n })
  expect(toMinor("10.421", "EUR").ok).toBe(false)
  expect(toMinor("1e3", "EUR").ok).toBe(false)
  expect(toMinor("-1", "EUR").ok).toBe(false)
  expect(toMinor("1", "XXX").ok).toBe(true) // ISO "no currency" has 0 digits
  expect(toMinor("1", "ZZZ").ok).toBe(false)
})

it("round-trips minor units through the major string for exponents 0, 2 and 3", () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 13n }), fc.constantFrom("JPY", "EUR", "KWD", "BHD", "USD"), (minor, cur) => {
      const major = fromMinor(minor, cur)
      const back = toMinor(major, cur)
      return back.ok && back.minor === minor
    }),
  )
})

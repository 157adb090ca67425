/**
 * Medusa amounts → the gateway's major-unit decimal string, exactly.
 *
 * Medusa hands the provider several shapes (medusa-v2.md §1.4): a number (initiatePayment gets collection.amount),
 * a string, a raw `{ value: "12.5", precision: 20 }` (refundPayment gets refund.raw_amount), a bignumber.js
 * instance or Medusa's own BigNumber. All are read through Medusa's BigNumber and its exact decimal text
 * (`bigNumber.toFixed()`, never `.numeric` or a float), then rounded to the currency's ISO 4217 exponent
 * half-up on the decimal digits — the same rounding Medusa applies in its own capture/refund guards
 * (`roundToCurrencyPrecision`) — and written with exactly that many decimals by the gateway money module.
 */
import { BigNumber, MedusaError } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import type BigNumberJs from "bignumber.js"
import { currencyExponent, fromMinorUnits } from "../../gateway/money"

const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/
const PLAIN_UNSIGNED = /^(\d+)(?:\.(\d*))?$/

/** Exact decimal text of any Medusa amount shape ("12.5", "1000", "0.001"); throws on NaN / non-amounts. */
export function decimalText(amount: BigNumberInput): string {
  let text: string | undefined
  try {
    text = new BigNumber(amount).bigNumber?.toFixed()
  } catch {
    text = undefined
  }
  if (!text || !PLAIN_DECIMAL.test(text)) {
    throw new Error(`PaynetEasy: not an amount: ${typeof amount === "object" ? JSON.stringify(amount) : String(amount)}`)
  }
  return text
}

/**
 * Integer minor units of `amount` in `currency`, rounded half-up at the currency's exponent by bignumber.js (the
 * decimal library inside Medusa's BigNumber): shiftedBy(exponent) then integerValue(ROUND_HALF_UP).
 */
export function toMinor(amount: BigNumberInput, currency: string): bigint {
  const exponent = currencyExponent(currency)
  // The common case (a plain decimal string with no more decimals than the currency has: "10.42", "1000") is exact
  // integer arithmetic; anything else (numbers, BigNumber shapes, rounding) goes through BigNumber below.
  const plain = typeof amount === "string" ? PLAIN_UNSIGNED.exec(amount) : null
  if (plain && (plain[2] ?? "").length <= exponent) return BigInt(plain[1] + (plain[2] ?? "").padEnd(exponent, "0"))
  const text = decimalText(amount)
  if (text.startsWith("-")) {
    throw new Error(`PaynetEasy: amount must not be negative (${text} ${currency.toUpperCase()})`)
  }
  const decimal = new BigNumber(text).bigNumber!
  const Decimal = decimal.constructor as typeof BigNumberJs
  return BigInt(decimal.shiftedBy(exponent).integerValue(Decimal.ROUND_HALF_UP).toFixed(0))
}

/** The gateway's `amount` field: canonical major units with exactly the currency's decimals ("10.42", "1000", "1.234"). */
export function toGatewayAmount(amount: BigNumberInput, currency: string): string {
  return fromMinorUnits(toMinor(amount, currency), currency)
}

/** The gateway's currency field: upper-case ISO code (Medusa lower-cases currency codes). */
export function toGatewayCurrency(currency: string): string {
  const code = (currency ?? "").trim().toUpperCase()
  currencyExponent(code)
  return code
}

/** Signed minor units of a Medusa amount: an order summary's differences may be negative (an order paid more than it owes). */
export function signedMinor(amount: BigNumberInput | null | undefined, currency: string): bigint {
  const text = decimalText((amount ?? 0) as BigNumberInput)
  return text.startsWith("-") ? -toMinor(text.slice(1), currency) : toMinor(text, currency)
}

/** A Medusa money row (Capture, Refund, shipping method): its raw amount when Medusa gives one, else its amount. */
export type MoneyRow = { raw_amount?: unknown; amount?: unknown }

/** The sum of Medusa money rows (a Payment's captures or refunds) in minor units; no rows is zero. */
export function rowsMinor(rows: readonly MoneyRow[] | null | undefined, currency: string): bigint {
  return (rows ?? []).reduce((n, r) => n + toMinor((r.raw_amount ?? r.amount ?? 0) as BigNumberInput, currency), 0n)
}

/**
 * Minor units of an amount a person typed (an admin's rebill), refusing what the currency cannot hold: a negative
 * amount or more decimals than its ISO 4217 exponent is an INVALID_DATA error, never silently rounded.
 */
export function exactMinor(amount: string | number, currency: string): bigint {
  let text: string
  try {
    text = decimalText(amount)
  } catch {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "amount must be a decimal number")
  }
  const fraction = (text.split(".")[1] ?? "").replace(/0+$/, "")
  if (text.startsWith("-") || fraction.length > currencyExponent(currency)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `amount must be positive with at most ${currencyExponent(currency)} decimals in ${currency.toUpperCase()}`)
  }
  return toMinor(amount, currency)
}

/**
 * Exact money: major-unit decimal strings <-> integer minor units, by ISO 4217 exponent.
 *
 * The gateway's `control` checksums carry the amount in minor units ("10.42" EUR → "1042"), and the form field
 * `amount` is a major-unit decimal. Floats are never involved: `0.29 * 100` is 28.999999999999996 in JS, and
 * truncating it was a real bug in the vendor's own PHP and Ruby libraries (gateway notes §6.4). Here the decimal
 * string is split at the point and the digits are joined as a bigint.
 *
 * The exponent comes from ISO 4217 via `currency-codes`: EUR 2, JPY 0, KWD 3.
 */
import { code as isoCurrency } from "currency-codes"
import { GatewayInputError } from "./errors"

/** Plain non-negative decimal: digits, optionally a point and more digits. No sign, exponent, comma or spaces. */
const DECIMAL = /^(\d+)(?:\.(\d+))?$/

/** ISO 4217 minor-unit exponent of `currency` (case-insensitive). Unknown codes → GatewayInputError("currency"). */
export function currencyExponent(currency: string): number {
  const known = typeof currency === "string" ? exponentOf.get(currency) : undefined
  if (known !== undefined) return known
  const code = typeof currency === "string" ? currency.trim().toUpperCase() : ""
  const entry = /^[A-Z]{3}$/.test(code) ? isoCurrency(code) : undefined
  if (!entry || typeof entry.digits !== "number") {
    throw new GatewayInputError(`unknown currency "${String(currency).slice(0, 8)}" (expected an ISO 4217 code)`, {
      field: "currency",
    })
  }
  if (exponentOf.size < 512) exponentOf.set(currency, entry.digits)
  return entry.digits
}

/**
 * Exponents already looked up, by the currency text as given ("EUR", "eur", " EUR "): `currency-codes` finds a code
 * by a linear search of its table, several times per gateway call (the amount's checks, the control sum, the
 * reply's amount; bench "provider authorize"). Only known codes are kept, at most 512 spellings.
 */
const exponentOf = new Map<string, number>()

function parseAmount(amount: string, currency: string): { minor: bigint; exponent: number } {
  const exponent = currencyExponent(currency)
  const text = typeof amount === "string" ? amount.trim() : ""
  const match = DECIMAL.exec(text)
  if (!match) {
    throw new GatewayInputError(
      `amount must be a non-negative decimal with a point, like "10.42" (got "${text.slice(0, 24)}")`,
      { field: "amount" },
    )
  }
  const whole = match[1]
  const fraction = match[2] ?? ""
  const significant = fraction.slice(0, exponent)
  const excess = fraction.slice(exponent)
  if (/[^0]/.test(excess)) {
    throw new GatewayInputError(
      `amount "${text}" has more decimals than ${currency.trim().toUpperCase()} allows (${exponent})`,
      { field: "amount" },
    )
  }
  const minor = BigInt(whole + significant.padEnd(exponent, "0"))
  return { minor, exponent }
}

/** "10.42" EUR → 1042n; "1000" JPY → 1000n; "1.234" KWD → 1234n. Trailing zeros beyond the exponent are fine. */
export function toMinorUnits(amount: string, currency: string): bigint {
  return parseAmount(amount, currency).minor
}

/** 1042n EUR → "10.42"; 1000n JPY → "1000"; 1234n KWD → "1.234". Negative amounts are refused. */
export function fromMinorUnits(minor: bigint, currency: string): string {
  const exponent = currencyExponent(currency)
  if (typeof minor !== "bigint" || minor < 0n) {
    throw new GatewayInputError("minor-unit amount must be a non-negative bigint", { field: "amount" })
  }
  if (exponent === 0) return minor.toString()
  const digits = minor.toString().padStart(exponent + 1, "0")
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`
}

/** Canonical major-unit string with exactly `exponent` decimals: "10.4" EUR → "10.40", "1000.0" JPY → "1000". */
export function normalizeAmount(amount: string, currency: string): string {
  return fromMinorUnits(toMinorUnits(amount, currency), currency)
}

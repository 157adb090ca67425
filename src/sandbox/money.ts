/**
 * The sandbox's own amount arithmetic (deliberately not src/gateway/money.ts, so the two cross-check).
 *
 * Amounts arrive as major-unit decimal strings ("10.42"); control checksums use minor units (1042). The
 * conversion is integer-only: digits are shifted by the currency's ISO 4217 exponent (JPY 0, EUR 2, KWD 3),
 * never multiplied as floats (notes §6.4).
 */
import * as currencyCodes from "currency-codes"

export function exponentOf(currency: string): number | undefined {
  const rec = currencyCodes.code(currency.trim().toUpperCase())
  return rec ? rec.digits : undefined
}

export type MinorResult = { ok: true; minor: bigint } | { ok: false; message: string }

/** "10.42" EUR → 1042n. Extra zero decimals are fine ("10.420"); extra non-zero decimals are refused. */
export function toMinor(amount: string, currency: string): MinorResult {
  const exp = exponentOf(currency)
  if (exp === undefined) return { ok: false, message: `Unknown currency: ${currency}` }
  const m = /^(\d{1,15})(?:\.(\d{1,15}))?$/.exec(amount.trim())
  if (!m) return { ok: false, message: `Invalid amount format: ${amount}` }
  const whole = m[1]
  let frac = m[2] ?? ""
  if (frac.length > exp) {
    if (/[^0]/.test(frac.slice(exp))) return { ok: false, message: `Amount has more decimals than ${currency} allows` }
    frac = frac.slice(0, exp)
  }
  frac = frac.padEnd(exp, "0")
  return { ok: true, minor: BigInt(whole + frac) }
}

/** 1042n EUR → "10.42"; 1000n JPY → "1000". */
export function fromMinor(minor: bigint, currency: string | undefined): string {
  const exp = currency ? exponentOf(currency) ?? 2 : 2
  const neg = minor < 0n
  const digits = (neg ? -minor : minor).toString().padStart(exp + 1, "0")
  const major = exp === 0 ? digits : `${digits.slice(0, -exp)}.${digits.slice(-exp)}`
  return neg ? `-${major}` : major
}

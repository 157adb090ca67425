/**
 * Card checks the direct card form runs in the browser before anything is sent: Luhn, brand by prefix, expiry in the
 * future, CVV length by brand, holder present. Pure functions: the card never leaves the caller's variables here.
 */

/** A card as the shopper typed it. Posted only to the plugin's card route; never stored or logged by the kit. */
export interface CardInput {
  number: string
  /** "MM/YY", "MM/YYYY", "MM / YY" … */
  expiry: string
  cvv: string
  holder: string
}

export type CardBrand = "visa" | "mastercard" | "maestro" | "mir" | "amex" | "unionpay" | "unknown"

/** Digits only ("4444 5555-6666 1111" → "4444555566661111"). */
export const cardDigits = (number: string): string => number.replace(/[\s-]/g, "")

/** True when `number` (spaces and dashes allowed) is 12–19 digits and passes the Luhn check. */
export function luhnValid(number: string): boolean {
  const digits = cardDigits(number)
  if (!/^\d{12,19}$/.test(digits)) return false
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

/** The card's brand by its leading digits (for the icon and the CVV length). */
export function cardBrand(number: string): CardBrand {
  const n = cardDigits(number)
  if (/^220[0-4]/.test(n)) return "mir"
  if (/^4/.test(n)) return "visa"
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(n)) return "mastercard"
  if (/^3[47]/.test(n)) return "amex"
  if (/^(50|5[6-9]|6[0-9])/.test(n) && !/^62/.test(n)) return "maestro"
  if (/^62/.test(n)) return "unionpay"
  return "unknown"
}

/** "12/30" or "12/2030" → { month: "12", year: "2030" }; undefined when it is not a month and year. */
export function parseExpiry(expiry: string): { month: string; year: string } | undefined {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry)
  if (!m) return undefined
  const month = Number(m[1])
  if (month < 1 || month > 12) return undefined
  const year = m[2].length === 2 ? `20${m[2]}` : m[2]
  return { month: String(month).padStart(2, "0"), year }
}

/** Which fields of a card are wrong (empty when it can be sent). `now` is for tests. */
export function cardErrors(card: CardInput, now: Date = new Date()): Array<keyof CardInput> {
  const errors: Array<keyof CardInput> = []
  if (!luhnValid(card.number)) errors.push("number")
  const exp = parseExpiry(card.expiry)
  const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth()
  if (!exp || Number(exp.year) * 12 + Number(exp.month) - 1 < thisMonth) errors.push("expiry")
  const cvvLength = cardBrand(card.number) === "amex" ? 4 : 3
  if (!new RegExp(`^\\d{${cvvLength}}$`).test(card.cvv.trim())) errors.push("cvv")
  if (!card.holder.trim()) errors.push("holder")
  return errors
}

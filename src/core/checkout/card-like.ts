/**
 * Where card data hides in storefront-written payment session data: keys that name a security code or a card number,
 * a `card` object, or a value that is a card number (13–19 digits passing the Luhn check).
 *
 * Why it exists: Medusa writes the storefront's session `data` to `payment_session.data` before any provider runs
 * (payment-module.js createPaymentSession), so card data must be refused before Medusa sees it (the store middleware,
 * api/payment-session-data-guard.ts) and again by the provider for callers that are not HTTP. Only paths are
 * returned, never values.
 */
import { luhnOk } from "../../gateway/luhn"

const CARD_KEYS = /^(cvv2?|cvc2?|csc|cid|security_?code|card_?number|credit_?card(_?number)?|pan|card|card_?holder_?number)$/i
const CARD_NUMBER = /^[0-9][0-9 -]{11,22}[0-9]$/

function looksLikeCardNumber(value: unknown): boolean {
  if (typeof value !== "string" && typeof value !== "number") return false
  const text = String(value).trim()
  if (!CARD_NUMBER.test(text)) return false
  const digits = text.replace(/[ -]/g, "")
  return digits.length >= 13 && digits.length <= 19 && luhnOk(digits)
}

/** Paths (`data.cvv2`, `data.payer.card_number`, …) of card-like keys holding something, and of card-number values. */
export function cardLikeFields(data: unknown, path = "data", depth = 0): string[] {
  if (looksLikeCardNumber(data)) return [path]
  if (data === null || typeof data !== "object" || depth > 16) return []
  const found: string[] = []
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    const at = Array.isArray(data) ? `${path}[${key}]` : `${path}.${key}`
    if (CARD_KEYS.test(key) && value !== null && value !== undefined) found.push(at)
    else found.push(...cardLikeFields(value, at, depth + 1))
  }
  return found
}

/** What a storefront is told when it puts card data into session data: where to send it instead. */
export function cardDataRefusal(fields: string[]): string {
  return (
    `Payment session data must not hold card data (${fields.slice(0, 5).join(", ")}): it would be stored. ` +
    "Create the session without it, then send a saved card's security code to " +
    "POST /store/payneteasy/payment-sessions/{id}/saved-card ({ cvv2 }), or a new card to " +
    "POST /store/payneteasy/payment-sessions/{id}/card"
  )
}

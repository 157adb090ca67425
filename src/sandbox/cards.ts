/**
 * Card handling: what the sandbox keeps of a card and how the CVV2 picks the outcome (notes §11).
 *
 * The full PAN and the CVV2 are never stored: at submission the card becomes a summary (BIN, last four, brand,
 * expiry, holder) plus a behaviour flag derived from the CVV2. Inspection output shows only the summary.
 */

export type Behaviour =
  | "approve" // CVV2 123 / 1234
  | "3ds" // CVV2 321: 3-D Secure challenge, password "secret" approves
  | "approve-no-3ds" // CVV2 111: non-enrolled card, approved without 3DS
  | "unknown" // CVV2 217: stays `unknown` (acquirer network problem)
  | "decline-expired" // 101
  | "decline-funds" // 116
  | "decline-not-permitted" // 119
  | "decline-stolen" // 209
  | "decline" // any other CVV2
  | "ineligible" // never from a CVV2: a card that cannot receive a money transfer (eligibility.ts)

export const BEHAVIOURS: readonly Behaviour[] = [
  "approve", "3ds", "approve-no-3ds", "unknown", "decline-expired", "decline-funds", "decline-not-permitted",
  "decline-stolen", "decline", "ineligible",
]

export function behaviourFromCvv(cvv2: string): Behaviour {
  switch (cvv2.trim()) {
    case "123":
    case "1234":
      return "approve"
    case "321":
      return "3ds"
    case "111":
      return "approve-no-3ds"
    case "217":
      return "unknown"
    case "101":
      return "decline-expired"
    case "116":
      return "decline-funds"
    case "119":
      return "decline-not-permitted"
    case "209":
      return "decline-stolen"
    default:
      return "decline"
  }
}

/** error-code / error-message of a declining behaviour (the codes are the sandbox's own; notes §12 has no catalogue). */
export const DECLINE_REASONS: Record<string, { code: string; message: string }> = {
  "decline-expired": { code: "101", message: "Declined: expired card" },
  "decline-funds": { code: "116", message: "Declined: insufficient funds" },
  "decline-not-permitted": { code: "119", message: "Declined: transaction not permitted to cardholder" },
  "decline-stolen": { code: "209", message: "Declined: pick-up card (stolen)" },
  decline: { code: "100", message: "Declined by issuer" },
  "3ds-failed": { code: "301", message: "Declined: 3-D Secure authentication failed" },
  forced: { code: "900", message: "Declined by sandbox steering" },
  ineligible: { code: "470", message: "Card is not eligible for money transfers (issuer does not accept credits to this card)" },
}

export interface CardSummary {
  bin: string
  lastFour: string
  brand: string
  expMonth: string
  expYear: string
  holder: string
}

export function luhnValid(digits: string): boolean {
  let sum = 0
  let alt = false
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48
    if (alt) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
    alt = !alt
  }
  return sum % 10 === 0
}

export function brandOf(pan: string): string {
  if (pan.startsWith("4")) return "VISA"
  const two = Number(pan.slice(0, 2))
  const four = Number(pan.slice(0, 4))
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return "MASTERCARD"
  if (four >= 2200 && four <= 2204) return "MIR"
  if (two === 34 || two === 37) return "AMEX"
  if (two === 35) return "JCB"
  if (two === 62) return "UNIONPAY"
  return "UNKNOWN"
}

export type CardCheck = { ok: true; card: CardSummary } | { ok: false; field: string; message: string }

/** Validates raw card input and reduces it to a summary. Messages never contain the PAN or the CVV2. */
export function summariseCard(input: {
  number: string
  expMonth: string
  expYear: string
  holder: string
  cvv2?: string
}): CardCheck {
  const pan = input.number.replace(/[\s-]/g, "")
  if (!/^\d{12,19}$/.test(pan) || !luhnValid(pan)) {
    return { ok: false, field: "credit_card_number", message: "Invalid credit card number" }
  }
  const month = input.expMonth.trim()
  if (!/^\d{1,2}$/.test(month) || Number(month) < 1 || Number(month) > 12) {
    return { ok: false, field: "expire_month", message: "Invalid expire_month" }
  }
  const yearRaw = input.expYear.trim()
  if (!/^(\d{2}|\d{4})$/.test(yearRaw)) return { ok: false, field: "expire_year", message: "Invalid expire_year" }
  if (input.cvv2 !== undefined && !/^\d{3,4}$/.test(input.cvv2.trim())) {
    return { ok: false, field: "cvv2", message: "Invalid cvv2" }
  }
  const year = yearRaw.length === 2 ? `20${yearRaw}` : yearRaw
  return {
    ok: true,
    card: {
      bin: pan.slice(0, 6),
      lastFour: pan.slice(-4),
      brand: brandOf(pan),
      expMonth: month.padStart(2, "0"),
      expYear: year,
      holder: input.holder.trim(),
    },
  }
}

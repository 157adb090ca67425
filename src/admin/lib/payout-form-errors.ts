/**
 * Where a payout refusal is shown and in which words: a server or zod field path ("destination.card_number",
 * "currency_code", "Idempotency-Key") → the form field it belongs under (or the form as a whole), and the message
 * with the field's internal name replaced by the words the form shows. Pure, so the unit tier covers it.
 */
export type PayoutKind = "card" | "bank" | "wallet" | "phone" | "saved_card"

/** Each destination kind's fields and the i18n key (under payneteasy.payouts.form) of each field's words. */
export const KIND_FIELDS: Record<PayoutKind, Array<[string, string]>> = {
  card: [["card_number", "cardNumber"]],
  bank: [["account_number", "accountNumber"], ["bank_name", "bankName"], ["bank_branch", "bankBranch"]],
  wallet: [["wallet_id", "walletId"]],
  phone: [["phone", "phone"]],
  saved_card: [["card_id", "savedCard"]],
}

/** Every field of the form → the i18n key of its words. */
export const FIELD_WORDS: Record<string, string> = {
  method: "method", amount: "amount", currency_code: "currency", destination: "destination", recipient: "recipient", purpose: "purpose",
  customer: "customer", ...Object.fromEntries(Object.values(KIND_FIELDS).flat()),
}

/** The form field a refusal belongs under; "form" when it names none of them (a header, the body, a conflict). */
export function formFieldOf(path: string | undefined | null): string {
  const p = (path ?? "").replace(/^destination\.type$/, "destination").replace(/^destination\./, "")
  return Object.prototype.hasOwnProperty.call(FIELD_WORDS, p) ? p : "form"
}

/** The message in the form's words: a leading "field: " dropped, internal field names replaced by their labels. */
export function messageInWords(message: string, label: (field: string) => string): string {
  let m = message.replace(/^[A-Za-z_.-]+:\s*/, "")
  for (const raw of Object.keys(FIELD_WORDS).sort((a, b) => b.length - a.length)) {
    m = m.replace(new RegExp(`\\b(destination\\.)?${raw}\\b`, "g"), label(raw))
  }
  return m.charAt(0).toUpperCase() + m.slice(1)
}

/**
 * Every payout refusal lands under its field in words (lib/payout-form-errors.ts): the server's and zod's field paths
 * for each field of the real schema map to a field the form shows, and the message names no internal field.
 */
import { createPayoutSchema, firstIssue } from "../../../core/payouts/payout-request"
import { en } from "../../i18n/en"
import { FIELD_WORDS, formFieldOf, KIND_FIELDS, messageInWords } from "../payout-form-errors"

const label = (f: string) => (en.payneteasy.payouts.form as Record<string, string>)[FIELD_WORDS[f]]

describe("formFieldOf", () => {
  it("maps server and zod paths to the form's fields, anything else to the form as a whole", () => {
    expect(formFieldOf("destination.card_number")).toBe("card_number")
    expect(formFieldOf("destination.card_id")).toBe("card_id")
    expect(formFieldOf("destination.type")).toBe("destination")
    expect(formFieldOf("destination")).toBe("destination")
    expect(formFieldOf("currency_code")).toBe("currency_code")
    expect(formFieldOf("amount")).toBe("amount")
    expect(formFieldOf("Idempotency-Key")).toBe("form")
    expect(formFieldOf("body")).toBe("form")
    expect(formFieldOf(undefined)).toBe("form")
    expect(formFieldOf("toString")).toBe("form")
  })

  it("every field of every destination kind has words in the form", () => {
    for (const [field, key] of Object.values(KIND_FIELDS).flat()) {
      expect([field, typeof (en.payneteasy.payouts.form as Record<string, string>)[key]]).toEqual([field, "string"])
    }
  })
})

describe("messageInWords", () => {
  const bodies: Array<Record<string, unknown>> = [
    { method: "single", amount: "1", currency_code: "EUR", destination: { type: "card", card_number: "4444555566661112" } },
    { method: "single", amount: "0", currency_code: "EUR", destination: { type: "card", card_number: "4444555566661111" } },
    { method: "single", amount: "1.001", currency_code: "EUR", destination: { type: "card", card_number: "4444555566661111" } },
    { method: "single", amount: "1", currency_code: "XXQ", destination: { type: "card", card_number: "4444555566661111" } },
    { method: "single", amount: "1", currency_code: "EUR", destination: { type: "bank", account_number: "DE 89", bank_name: "B", bank_branch: "C" } },
    { method: "single", amount: "1", currency_code: "EUR", destination: { type: "wallet", wallet_id: "a b" } },
    { method: "single", amount: "1", currency_code: "EUR", destination: { type: "phone", phone: "12" } },
    { method: "single", amount: "1", currency_code: "EUR" },
    { method: "form", amount: "1", currency_code: "EUR", destination: { type: "card", card_number: "4444555566661111" } },
  ]

  it("each refusal of the real schema is placed under a field the form shows, with no internal field name left", () => {
    for (const body of bodies) {
      const parsed = createPayoutSchema.safeParse(body)
      expect(parsed.success).toBe(false)
      const issue = firstIssue(parsed.error!)
      const field = formFieldOf(issue.field)
      const words = messageInWords(issue.message, label)
      expect([JSON.stringify(body), field]).not.toEqual([JSON.stringify(body), "form"])
      expect(words).not.toMatch(/\b(card_number|currency_code|account_number|wallet_id|card_id|bank_name|bank_branch)\b/)
      expect(words).toMatch(/^[A-Z]/)
    }
  })

  it("the server's own refusals read in words too", () => {
    expect(messageInWords("amount: 25.00 EUR is above the per-payout limit of 10.00 EUR", label)).toBe("25.00 EUR is above the per-payout limit of 10.00 EUR")
    expect(messageInWords("currency_code: USD is not allowed for payouts (allowed: EUR)", label)).toBe("USD is not allowed for payouts (allowed: EUR)")
    expect(messageInWords("destination.card_number: card_number is not a valid card number (Luhn check failed)", label)).toBe(
      "Card number is not a valid card number (Luhn check failed)"
    )
  })
})

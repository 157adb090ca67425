/**
 * The payout request bodies (`POST /admin/payneteasy/payouts`), validated with zod. One schema for the server and
 * the dashboard's create form (src/admin imports this file), so both refuse the same inputs with the same words.
 *
 * Every refusal names its field (`destination.card_number`, `amount`, …) and nothing is sent or stored:
 * card numbers must pass Luhn; amounts are decimal strings, positive, with no more decimals than the currency's
 * ISO 4217 exponent (gateway/money.ts); currencies must be ISO 4217; exactly one destination, of one kind, with only
 * that kind's fields (single and two-step; a saved card is named by the plugin's card id, and whether it exists is
 * checked by the route), none for the hosted form (the recipient enters it there); every text
 * field has a length limit. Unknown keys are refused rather than ignored.
 */
import { z } from "zod"
import { currencyExponent } from "../../gateway/money"
import { luhnOk } from "../../gateway/luhn"
import { SAVED_CARD_ID, SAVED_CARD_ID_MESSAGE } from "../saved-cards/card-id"

export const PAYOUT_METHOD_VALUES = ["single", "two_step", "form"] as const
export const DESTINATION_TYPE_VALUES = ["card", "saved_card", "bank", "wallet", "phone"] as const
export const MAX_LEN = { amount: 24, recipient: 128, purpose: 255, bank_name: 100, bank_branch: 100, account_number: 34, wallet_id: 64, card_id: 64, idempotencyKey: 128 } as const

export { luhnOk } from "../../gateway/luhn"

const text = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .trim()
    .min(1, { message: `${name} must not be empty` })
    .max(max, { message: `${name} must be at most ${max} characters` })

const cardNumber = z
  .string({ error: "card_number must be a string of digits" })
  .max(40, { message: "card_number is too long" })
  .transform((v) => v.replace(/[\s-]/g, ""))
  .refine((v) => /^\d{12,19}$/.test(v), { message: "card_number must be 12 to 19 digits" })
  .refine((v) => !/^\d{12,19}$/.test(v) || luhnOk(v), { message: "card_number is not a valid card number (Luhn check failed)" })

export const destinationSchema = z.discriminatedUnion(
  "type",
  [
    z.strictObject({ type: z.literal("card"), card_number: cardNumber }),
    z.strictObject({
      type: z.literal("saved_card"),
      card_id: text("card_id", MAX_LEN.card_id).refine((v) => SAVED_CARD_ID.test(v), { message: SAVED_CARD_ID_MESSAGE }),
    }),
    z.strictObject({
      type: z.literal("bank"),
      account_number: text("account_number", MAX_LEN.account_number).refine((v) => /^[A-Za-z0-9]+$/.test(v), {
        message: "account_number must be letters and digits only (an IBAN or account number without spaces)",
      }),
      bank_name: text("bank_name", MAX_LEN.bank_name),
      bank_branch: text("bank_branch", MAX_LEN.bank_branch),
    }),
    z.strictObject({
      type: z.literal("wallet"),
      wallet_id: text("wallet_id", MAX_LEN.wallet_id).refine((v) => /^[A-Za-z0-9._@+-]+$/.test(v), {
        message: "wallet_id may contain letters, digits and . _ @ + - only",
      }),
    }),
    z.strictObject({
      type: z.literal("phone"),
      phone: z
        .string({ error: "phone must be a string" })
        .max(24, { message: "phone must be at most 24 characters" })
        .transform((v) => v.replace(/[\s()-]/g, ""))
        .refine((v) => /^\+?[0-9]{6,15}$/.test(v), { message: "phone must be an international number, e.g. +37120000001" }),
    }),
  ],
  { error: `destination.type must be one of ${DESTINATION_TYPE_VALUES.join(", ")}` }
)

export type PayoutDestinationInput = z.output<typeof destinationSchema>

export const createPayoutSchema = z
  .strictObject({
    method: z.enum(PAYOUT_METHOD_VALUES, { error: `method must be one of ${PAYOUT_METHOD_VALUES.join(", ")}` }),
    amount: z
      .string({ error: 'amount must be a decimal string, e.g. "25.00"' })
      .trim()
      .max(MAX_LEN.amount, { message: `amount must be at most ${MAX_LEN.amount} characters` })
      .refine((v) => /^\d+(\.\d+)?$/.test(v), { message: 'amount must be a positive decimal string, e.g. "25.00"' })
      .refine((v) => !/^\d+(\.\d+)?$/.test(v) || /[1-9]/.test(v), { message: "amount must be greater than zero" }),
    currency_code: z
      .string({ error: "currency_code must be an ISO 4217 code, e.g. EUR" })
      .trim()
      .toUpperCase()
      .refine((v) => knownCurrency(v), { message: "currency_code must be an ISO 4217 currency code, e.g. EUR" }),
    destination: destinationSchema.optional(),
    recipient: text("recipient", MAX_LEN.recipient).optional(),
    purpose: text("purpose", MAX_LEN.purpose).optional(),
  })
  .superRefine((b, ctx) => {
    if (knownCurrency(b.currency_code) && /^\d+(\.\d+)?$/.test(b.amount)) {
      const decimals = b.amount.split(".")[1]?.length ?? 0
      const exponent = currencyExponent(b.currency_code)
      if (decimals > exponent) {
        ctx.addIssue({
          code: "custom",
          path: ["amount"],
          message: `amount has ${decimals} decimals but ${b.currency_code} has ${exponent}`,
        })
      }
    }
    if (b.method === "form" && b.destination) {
      ctx.addIssue({
        code: "custom",
        path: ["destination"],
        message: "destination must be omitted for the hosted form: the recipient enters it on the gateway's page",
      })
    }
    if (b.method !== "form" && !b.destination) {
      ctx.addIssue({ code: "custom", path: ["destination"], message: `destination is required for a ${b.method} payout` })
    }
  })

export type CreatePayoutBody = z.output<typeof createPayoutSchema>

export const listPayoutsQuerySchema = z.object({
  status: z.union([z.string(), z.array(z.string())]).optional(),
  method: z.enum(PAYOUT_METHOD_VALUES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
})

export const idempotencyKeySchema = z
  .string({ error: "the Idempotency-Key header is required (a fresh random value per new payout or confirm)" })
  .trim()
  .min(8, { message: "Idempotency-Key must be 8 to 128 characters" })
  .max(MAX_LEN.idempotencyKey, { message: "Idempotency-Key must be 8 to 128 characters" })
  .refine((v) => /^[A-Za-z0-9._:-]+$/.test(v), { message: "Idempotency-Key may contain letters, digits and . _ : - only" })

function knownCurrency(code: string): boolean {
  try {
    currencyExponent(code)
    return true
  } catch {
    return false
  }
}

/** The first problem as `{ field, message }` — the 400 body's field and text. */
export function firstIssue(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0]
  const field = issue.path.map(String).join(".") || "body"
  let message = issue.message
  if (issue.code === "unrecognized_keys") {
    const keys = (issue as { keys?: string[] }).keys ?? []
    const where = field === "body" ? "" : `${field}.`
    return {
      field: keys.length ? `${where}${keys[0]}` : field,
      message: `unexpected field ${keys.map((k) => `${where}${k}`).join(", ")}${field.startsWith("destination") ? " (one destination, with only its own fields)" : ""}`,
    }
  }
  if (issue.code === "invalid_union" && field === "destination") {
    message = `destination.type must be one of ${DESTINATION_TYPE_VALUES.join(", ")}`
  }
  return { field, message: message.startsWith(field.split(".").pop() ?? "\u0000") ? message : `${field}: ${message}` }
}

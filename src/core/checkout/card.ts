/**
 * Card fields for the direct flow. They exist only in memory for the duration of one request: the card route
 * passes them to the provider's updatePayment, which sends them to the gateway and returns session data built
 * from scratch without them (Medusa stores updatePayment's OUTPUT as session data, payment-module.js
 * updatePaymentSession). Validation messages never contain the values.
 */
import { z } from "zod"
import { luhnOk } from "../../gateway/luhn"

export const cardSchema = z.object({
  number: z
    .string({ error: "card.number is required" })
    .transform((v) => v.replace(/[\s-]/g, ""))
    .refine((v) => /^[0-9]{12,19}$/.test(v), { message: "card.number must be 12–19 digits" })
    .refine((v) => !/^[0-9]{12,19}$/.test(v) || luhnOk(v), { message: "card.number is not a valid card number (Luhn check failed)" }),
  cvv: z.string({ error: "card.cvv is required" }).trim().refine((v) => /^[0-9]{3,4}$/.test(v), { message: "card.cvv must be 3 or 4 digits" }),
  expMonth: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim().padStart(2, "0"))
    .refine((v) => /^(0[1-9]|1[0-2])$/.test(v), { message: "card.expMonth must be 1–12" }),
  expYear: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .refine((v) => /^[0-9]{2}$|^[0-9]{4}$/.test(v), { message: "card.expYear must be 2 or 4 digits" })
    .transform((v) => (v.length === 2 ? `20${v}` : v)),
  holder: z.string({ error: "card.holder is required" }).trim().min(1, { message: "card.holder must not be empty" }).max(128),
})

export type Card = z.output<typeof cardSchema>

/** Parses card fields; throws an Error whose message lists only the field problems (never the values). */
export function parseCard(raw: unknown): Card {
  const result = cardSchema.safeParse(raw)
  if (!result.success) {
    throw new Error(`Invalid card: ${result.error.issues.map((i) => i.message).join("; ")}`)
  }
  return result.data
}

/** Keys that must never survive into session data, whatever a caller put there. */
export const TRANSIENT_KEYS = ["card", "browser", "client_ip", "threeDS", "pay_saved_card"] as const

export function withoutTransient(data: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(data ?? {}) }
  for (const k of TRANSIENT_KEYS) delete out[k]
  return out
}

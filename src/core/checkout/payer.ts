/**
 * The payer fields PaynetEasy requires on sale / preauth and their hosted-page variants
 * (email, address1, city, zip_code, country, phone, ipaddress; names optional — gateway notes §5.1/§5.2).
 *
 * Where they come from, in order (first non-empty value wins, per field):
 * 1. `data.payer` — what the storefront sends when it creates the payment session: the CART's email, billing
 *    address and phone, and the shopper's IP. In Medusa 2.21.2 a guest's initiatePayment context carries no
 *    customer at all (createPaymentSessionsWorkflow only adds `customer` when the request is authenticated), so
 *    this is the only way a guest's details reach the provider. These are non-sensitive and only describe the
 *    payer to the gateway; they never decide an amount.
 * 2. `context.customer` — a logged-in customer (email, names, phone, default billing address), validated by Medusa.
 * 3. For the direct flow, the card route adds the shopper's IP as seen by the backend.
 * A missing required field is an error naming what the storefront must send; we never invent an email or address.
 *
 * Trusting the storefront's payer (checked against Medusa 2.21.2): initiatePayment gets only `amount`,
 * `currency_code`, `data` (the storefront's, plus `session_id`) and `context` = { idempotency_key: session id,
 * customer, account_holder } — customer/account_holder only for a logged-in shopper (store route
 * payment-collections/:id/payment-sessions → createPaymentSessionsWorkflow; payment-module.js createPaymentSession).
 * Nothing identifies the cart or its email, and the provider runs inside the payment module's container, which
 * cannot reach carts. So a guest's storefront could send an email other than the cart's. That is acceptable: it is
 * the shopper describing themself to the gateway's fraud checks (the same data they could type on the hosted page);
 * it never decides an amount, a status or where money goes, and Medusa's order keeps the cart's own email.
 * Only the known fields below are kept (z.object drops anything else, e.g. a card number put under `payer`).
 * The IP is the one field with a fallback: "0.0.0.0" is sent (documented) when neither storefront nor route knows it.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { payerRequestFields, type Payer, type RequestFields } from "../../gateway/requests"

/** Known payer fields only: z.object drops any other key (a storefront's `payer.credit_card_number` never survives). */
export const payerSchema = z.object({
  email: z.string().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  phone: z.string().optional(),
  address1: z.string().optional(),
  address_1: z.string().optional(),
  city: z.string().optional(),
  zip_code: z.string().optional(),
  postal_code: z.string().optional(),
  country: z.string().optional(),
  country_code: z.string().optional(),
  state: z.string().optional(),
  province: z.string().optional(),
  ip: z.string().optional(),
})
export type PayerInput = z.output<typeof payerSchema>

/** The payer as the gateway's request builders take it (src/gateway/requests.ts spells its fields). */
export type { Payer }

export interface CustomerLike {
  email?: string | null
  first_name?: string | null
  last_name?: string | null
  phone?: string | null
  billing_address?: {
    address_1?: string | null
    city?: string | null
    postal_code?: string | null
    country_code?: string | null
    province?: string | null
    phone?: string | null
    first_name?: string | null
    last_name?: string | null
  } | null
}

const first = (...values: Array<string | null | undefined>): string | undefined => {
  for (const v of values) {
    if (typeof v === "string" && v.trim() !== "") return v.trim()
  }
  return undefined
}

const IPV4_OR_6 = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F:]{2,39})$/
export const UNKNOWN_IP = "0.0.0.0"

/**
 * What may be stored as `data.payer`: the known payer fields of `raw`, or null (clears a malformed storefront value).
 * Undefined when the storefront sent no payer (nothing to override).
 */
export function storablePayer(raw: unknown): PayerInput | null | undefined {
  if (raw === undefined) return undefined
  const parsed = payerSchema.safeParse(raw ?? {})
  return parsed.success ? parsed.data : null
}

/**
 * THE customer mapping: a logged-in customer's details (billing address first, then the customer's own) in the
 * payer's field names. Used for every payer (payerFields) and kept with a direct session for its card step.
 */
export function customerPayer(customer: CustomerLike | undefined): PayerInput {
  if (!customer) return {}
  const b = customer.billing_address ?? undefined
  const out: PayerInput = {
    email: first(customer.email),
    first_name: first(b?.first_name, customer.first_name),
    last_name: first(b?.last_name, customer.last_name),
    phone: first(b?.phone, customer.phone),
    address1: first(b?.address_1),
    city: first(b?.city),
    zip_code: first(b?.postal_code),
    country: first(b?.country_code),
    state: first(b?.province),
  }
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as PayerInput
}

/**
 * Top-level keys a storefront might use for card data. At session creation Medusa stores
 * `{ ...storefront data, ...provider output }` (payment-module.js createPaymentSession), so a storefront key is
 * removed only by writing it as null in our output.
 */
export const CARD_LIKE_KEYS = ["card", "credit_card_number", "card_number", "pan", "cvv", "cvv2"] as const

/** `{ key: null }` for every card-like key present (non-null) in `data`: spread it into the provider's output. */
export function cardKeysCleared(data: Record<string, unknown> | undefined): Record<string, null> {
  const out: Record<string, null> = {}
  for (const k of CARD_LIKE_KEYS) {
    if (data?.[k] !== undefined && data[k] !== null) out[k] = null
  }
  return out
}

/** Storefront-written session data made storable: card-like keys nulled, `payer` narrowed to the known payer fields. */
export function storefrontSafe(data: Record<string, unknown> | undefined): Record<string, unknown> & { payer?: PayerInput | null } {
  const payer = storablePayer(data?.payer)
  return { ...(data ?? {}), ...cardKeysCleared(data), ...(payer === undefined ? {} : { payer }) }
}

/** The data.payer key (payerSchema) a storefront sends for each required payer value: the error names these. */
const REQUIRED_PAYER_KEYS = {
  email: "email", phone: "phone", street: "address1", city: "city", zip: "zip_code", country: "country",
} as const satisfies Partial<Record<keyof Payer, keyof PayerInput>>

/** The payer of a request: the storefront's data.payer first, then the logged-in customer; the IP from the route. */
export function payerOf(rawPayer: unknown, customer: CustomerLike | undefined, ip?: string): Payer {
  const parsed = payerSchema.safeParse(rawPayer ?? {})
  const p: PayerInput = parsed.success ? parsed.data : {}
  const c = customerPayer(customer)
  const ipCandidate = first(ip, p.ip)?.replace(/^::ffff:/, "")
  const payer = {
    email: first(p.email, c.email),
    firstName: first(p.first_name, c.first_name),
    lastName: first(p.last_name, c.last_name),
    phone: first(p.phone, c.phone),
    street: first(p.address1, p.address_1, c.address1),
    city: first(p.city, c.city),
    zip: first(p.zip_code, p.postal_code, c.zip_code),
    country: first(p.country, p.country_code, c.country)?.toUpperCase(),
    state: first(p.state, p.province, c.state),
    ip: ipCandidate && IPV4_OR_6.test(ipCandidate) ? ipCandidate : UNKNOWN_IP,
  }
  const missing = (Object.keys(REQUIRED_PAYER_KEYS) as Array<keyof typeof REQUIRED_PAYER_KEYS>)
    .filter((k) => !payer[k])
    .map((k) => REQUIRED_PAYER_KEYS[k])
  if (missing.length) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `PaynetEasy needs the payer's ${missing.join(", ")}: send them as data.payer when creating the payment session ` +
        `(the cart's email, billing address and phone), or log the customer in with a billing address`
    )
  }
  return payer as Payer
}

/** The payer's request fields in the gateway's spelling (what sale / preauth and their forms carry). */
export const payerFields = (rawPayer: unknown, customer: CustomerLike | undefined, ip?: string): RequestFields =>
  payerRequestFields(payerOf(rawPayer, customer, ip))

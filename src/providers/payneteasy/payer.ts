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
 * The IP is the one field with a fallback: "0.0.0.0" is sent (documented) when neither storefront nor route knows it.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"

export const payerSchema = z.looseObject({
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

export interface PayerFields {
  email: string
  first_name?: string
  last_name?: string
  phone: string
  address1: string
  city: string
  zip_code: string
  country: string
  state?: string
  ipaddress: string
}

interface CustomerLike {
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

export function payerFields(rawPayer: unknown, customer: CustomerLike | undefined, ip?: string): PayerFields {
  const parsed = payerSchema.safeParse(rawPayer ?? {})
  const p: PayerInput = parsed.success ? parsed.data : {}
  const b = customer?.billing_address ?? undefined
  const ipCandidate = first(ip, p.ip)?.replace(/^::ffff:/, "")
  const fields = {
    email: first(p.email, customer?.email),
    first_name: first(p.first_name, b?.first_name, customer?.first_name),
    last_name: first(p.last_name, b?.last_name, customer?.last_name),
    phone: first(p.phone, b?.phone, customer?.phone),
    address1: first(p.address1, p.address_1, b?.address_1),
    city: first(p.city, b?.city),
    zip_code: first(p.zip_code, p.postal_code, b?.postal_code),
    country: first(p.country, p.country_code, b?.country_code)?.toUpperCase(),
    state: first(p.state, p.province, b?.province),
    ipaddress: ipCandidate && IPV4_OR_6.test(ipCandidate) ? ipCandidate : UNKNOWN_IP,
  }
  const required = ["email", "phone", "address1", "city", "zip_code", "country"] as const
  const missing = required.filter((k) => !fields[k])
  if (missing.length) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `PaynetEasy needs the payer's ${missing.join(", ")}: send them as data.payer when creating the payment session ` +
        `(the cart's email, billing address and phone), or log the customer in with a billing address`
    )
  }
  return fields as PayerFields
}

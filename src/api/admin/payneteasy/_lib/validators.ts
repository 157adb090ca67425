/**
 * zod schemas of the plugin's admin routes (wired in src/api/middlewares.ts with Medusa's validateAndTransformQuery /
 * validateAndTransformBody, so a bad query or body is a 400 naming the field before the route runs).
 */
import { z } from "@medusajs/framework/zod"

const page = {
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
}

// Medusa's error text keeps a custom message as is, so each message names its field.
const isoDate = (field: string) =>
  z.string().refine((v) => !Number.isNaN(Date.parse(v)), { message: `${field} must be a date (ISO 8601, e.g. 2026-01-31 or 2026-01-31T12:00:00Z)` })

export const CALLBACK_OUTCOMES = ["received", "processed", "ignored", "failed", "flagged"] as const
export const CALLBACK_SOURCES = ["callback", "return", "reconcile"] as const

export const AdminPaynetEasyCallbacksQuery = z.object({
  ...page,
  status: z.string().trim().min(1).max(40).optional(),
  outcome: z.enum(CALLBACK_OUTCOMES).optional(),
  source: z.enum(CALLBACK_SOURCES).optional(),
  /** A Medusa order id: its PaynetEasy sessions' callbacks. */
  order_id: z.string().trim().min(1).max(100).optional(),
  /** The gateway's order id (paynet-order-id). */
  orderid: z.string().trim().min(1).max(100).optional(),
  client_orderid: z.string().trim().min(1).max(200).optional(),
  received_from: isoDate("received_from").optional(),
  received_to: isoDate("received_to").optional(),
})
export type AdminPaynetEasyCallbacksQueryType = z.infer<typeof AdminPaynetEasyCallbacksQuery>

export const AdminPaynetEasyAttentionQuery = z.object({
  ...page,
  handled: z.enum(["false", "true", "all"]).default("false"),
})
export type AdminPaynetEasyAttentionQueryType = z.infer<typeof AdminPaynetEasyAttentionQuery>

export const AdminPaynetEasyHandledBody = z.object({ note: z.string().trim().max(500).optional() }).strict()
export type AdminPaynetEasyHandledBodyType = z.infer<typeof AdminPaynetEasyHandledBody>

export const AdminPaynetEasyDoctorBody = z
  .object({ provider_id: z.string().trim().regex(/^pp_payneteasy(_[A-Za-z0-9_-]+)?$/, { message: "provider_id must be a PaynetEasy provider id (pp_payneteasy_<id>)" }).optional() })
  .strict()
export type AdminPaynetEasyDoctorBodyType = z.infer<typeof AdminPaynetEasyDoctorBody>

export const AdminPaynetEasyEmptyQuery = z.object({}).strict()

/** "Retry the charge" of a past-due subscription takes no fields (a stray one is a 400 naming it, nothing charged). */
export const AdminPaynetEasyRetryChargeBody = z.preprocess((v) => v ?? {}, z.object({}).strict())
export type AdminPaynetEasyRetryChargeBodyType = z.infer<typeof AdminPaynetEasyRetryChargeBody>

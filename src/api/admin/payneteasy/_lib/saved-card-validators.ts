/**
 * zod schemas of the admin saved-card routes (wired in src/api/middlewares.ts): unknown fields are a 400 naming them.
 */
import { z } from "@medusajs/framework/zod"

export const AdminPaynetEasyRebillBody = z
  .object({
    card_id: z.string().regex(/^pnecard_[0-9A-Za-z]{10,40}$/, { message: "card_id must be a saved card id (pnecard_…)" }),
    amount: z
      .union([z.number().positive({ message: "amount must be greater than zero" }), z.string().regex(/^\d+(\.\d+)?$/, { message: "amount must be a decimal number" })])
      .optional(),
  })
  .strict()

export type AdminPaynetEasyRebillBodyType = z.infer<typeof AdminPaynetEasyRebillBody>

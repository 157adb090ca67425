/**
 * zod schemas of the admin saved-card routes (wired in src/api/middlewares.ts): unknown fields are a 400 naming them.
 */
import { z } from "@medusajs/framework/zod"
import { SAVED_CARD_ID, SAVED_CARD_ID_MESSAGE } from "../../../../core/saved-cards/card-id"

export const AdminPaynetEasyRebillBody = z
  .object({
    card_id: z.string().regex(SAVED_CARD_ID, { message: SAVED_CARD_ID_MESSAGE }),
    amount: z
      .union([z.number().positive({ message: "amount must be greater than zero" }), z.string().regex(/^\d+(\.\d+)?$/, { message: "amount must be a decimal number" })])
      .optional(),
  })
  .strict()

export type AdminPaynetEasyRebillBodyType = z.infer<typeof AdminPaynetEasyRebillBody>

/**
 * zod schemas of the saved-card store routes (wired in src/api/middlewares.ts): unknown fields are a 400 naming them.
 */
import { z } from "@medusajs/framework/zod"

export const StorePaynetEasyAddCardBody = z
  .object({
    return_url: z
      .string()
      .max(2000)
      .refine((v) => /^https?:\/\/[^\s]+$/.test(v), { message: "return_url must be an http(s) URL" })
      .optional(),
  })
  .strict()

export type StorePaynetEasyAddCardBodyType = z.infer<typeof StorePaynetEasyAddCardBody>

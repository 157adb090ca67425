/**
 * Bodies of the store routes that carry card data or 3-D Secure results (wired in src/api/middlewares.ts with Medusa's
 * validateAndTransformBody). Each goes through valueFreeBody (../../value-free-body.ts): a bad body is a 400 naming
 * the field whose text never contains what was sent, so a mistyped PAN or CVV does not come back in the answer or
 * reach the log. The provider parses the card and the upload again before they go to the gateway.
 */
import { z } from "zod"
import { cardSchema } from "../../../core/checkout/card"
import { payerSchema } from "../../../core/checkout/payer"
import { threeDSUploadFields, type ThreeDSKind } from "../../../core/checkout/three-ds"
import { valueFreeBody } from "../../value-free-body"
import { SAVED_CARD_ID, SAVED_CARD_ID_MESSAGE } from "../../../core/saved-cards/card-id"

/** POST /store/payneteasy/payment-sessions/:id/card */
const cardBody = z.object({ card: cardSchema, payer: payerSchema.optional() })
export const StorePaynetEasyCardBody = valueFreeBody(cardBody)
export type StorePaynetEasyCardBodyType = z.output<typeof cardBody>

/** POST /store/payneteasy/payment-sessions/:id/saved-card: the saved card's security code, for this one charge. */
const savedCardBody = z.object({ cvv2: z.string().regex(/^[0-9]{3,4}$/, "cvv2 must be 3 or 4 digits").optional() })
export const StorePaynetEasySavedCardBody = valueFreeBody(savedCardBody)
export type StorePaynetEasySavedCardBodyType = z.output<typeof savedCardBody>

/** POST /store/payneteasy/3ds/:session_id/{method,cres,pares} */
export const StorePaynetEasyThreeDSBody = {
  method: valueFreeBody(threeDSUploadFields.method),
  cres: valueFreeBody(threeDSUploadFields.cres),
  pares: valueFreeBody(threeDSUploadFields.pares),
} satisfies Record<ThreeDSKind, unknown>
export type StorePaynetEasyThreeDSBodyType = { [K in ThreeDSKind]: z.output<(typeof threeDSUploadFields)[K]> }

/** POST /store/payneteasy/payment-collections/:id/pay: which registration, or which saved card (its owner only). */
const payLinkBody = z.object({
  order_id: z.string().min(1).max(100).optional(),
  provider_id: z.string().min(1).max(200).optional(),
  card_id: z.string().regex(SAVED_CARD_ID, SAVED_CARD_ID_MESSAGE).optional(),
  cvv2: z.string().regex(/^[0-9]{3,4}$/, "cvv2 must be 3 or 4 digits").optional(),
})
export const StorePaynetEasyPayLinkBody = valueFreeBody(payLinkBody)
export type StorePaynetEasyPayLinkBodyType = z.output<typeof payLinkBody>

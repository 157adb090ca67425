/**
 * GET /store/payneteasy/payment-collections/:id?order_id=… — a payment link as its holder may see it (issue 50): what
 * the order still owes on this collection, whether it can be paid (else why, in words), the open hosted page if any.
 * The storefront kit's payment-collection page reads this. Open sessions that reached the gateway are asked STATUS
 * first (core/payment-links/pay-link.ts refreshLink), so a shopper coming back from the hosted page sees the truth.
 * 200 { payment_link } for every state (the state says it); 404 when there is no such link.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { refreshLink } from "../../../../../core/payment-links/pay-link"
import { missingLink } from "../../../../payment-link-answers"

export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const orderId = typeof req.query.order_id === "string" ? req.query.order_id : undefined
  const view = await refreshLink(req.scope, req.params.id, orderId)
  res.status(missingLink(view) ? 404 : 200).json({ payment_link: view })
}

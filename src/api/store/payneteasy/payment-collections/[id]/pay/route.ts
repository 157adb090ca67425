/**
 * POST /store/payneteasy/payment-collections/:id/pay — pay a payment link (issue 50): start the payment of an order's
 * unpaid collection or resume the one already started (core/payment-links/pay-link.ts; one intent under the
 * collection's lock). Body { order_id?, provider_id?, card_id?, cvv2? }: a hosted page by default; a saved card only
 * for the logged-in customer who owns the order and the card (anyone else: 404, as for a card that does not exist).
 * The amount is always the collection's.
 * 200 { payment_link, redirect_url, payment_session_id, resumed } — send the shopper to redirect_url;
 * 200 { payment_link } with state "paid" — paid (a saved card, or a page paid a moment ago);
 * 402 payment_declined, 202 pending (outcome not known yet; nothing new started), 409 paid/expired/nothing owed,
 * 404 no such link (or not an order's), 400 bad input.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { payLink } from "../../../../../../core/payment-links/pay-link"
import type { StorePaynetEasyPayLinkBodyType } from "../../../validators"
import { refusalStatus } from "../../../../../payment-link-answers"

export const POST = async (req: AuthenticatedMedusaRequest<StorePaynetEasyPayLinkBodyType>, res: MedusaResponse) => {
  const body = req.validatedBody ?? {}
  const result = await payLink(req.scope, {
    collectionId: req.params.id,
    orderId: body.order_id,
    providerId: body.provider_id,
    origin: "storefront",
    customerId: req.auth_context?.actor_type === "customer" ? req.auth_context.actor_id : undefined,
    cardId: body.card_id,
    cvv: body.cvv2,
    ip: req.ip,
  })
  switch (result.kind) {
    case "redirect":
      res.status(200).json({ payment_link: result.view, redirect_url: result.url, payment_session_id: result.sessionId, resumed: result.resumed })
      return
    case "paid":
      res.status(200).json({ payment_link: result.view })
      return
    case "declined":
      res.status(402).json({ type: "payment_declined", message: result.message, payment_link: result.view })
      return
    case "pending":
      res.status(202).json({ type: "pending", message: result.message, payment_link: result.view })
      return
    case "refused":
      res.status(refusalStatus(result.view)).json({ type: result.state, message: result.message, payment_link: result.view })
  }
}

/**
 * POST /store/payneteasy/payment-sessions/:id/card — the direct (server-to-server) flow's card step.
 *
 * Body: { card: { number, cvv, expMonth, expYear, holder }, payer?: { email, phone, address1, city, zip_code, country, … } }
 * The card goes from this request, through the payment module's updatePaymentSession (a plain module call, not a
 * workflow: workflow step inputs can be persisted), to the provider's updatePayment, which sends sale / preauth and
 * returns session data built without it. Medusa stores only that output. Nothing here logs the body; it was validated
 * by the route's middleware (validateAndTransformBody with ../../../validators.ts, whose messages never echo a value).
 *
 * Answers: 200 { payment_session } — status authorized / captured / requires_more (data.nextAction: the 3-D Secure
 * redirect URL or HTML for the storefront) / pending; 402 { type: "payment_declined", message, payment_session } when the
 * gateway declined (the storefront shows the message; posting another card to the same session is a new attempt);
 * 400 on bad input, 404 for an unknown session, 409 when the session is already paid or a payment is running.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { StorePaynetEasyCardBodyType } from "../../../validators"
import { updateSessionUnderCartLock } from "../../locked-session-update"

export const POST = async (req: MedusaRequest<StorePaynetEasyCardBodyType>, res: MedusaResponse) => {
  const body = req.validatedBody
  await updateSessionUnderCartLock(req, res, { card: body.card, ...(body.payer ? { payer: body.payer } : {}), client_ip: req.ip })
}

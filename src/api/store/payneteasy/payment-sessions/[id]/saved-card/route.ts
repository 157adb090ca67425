/**
 * POST /store/payneteasy/payment-sessions/:id/saved-card — pays a saved-card session now, with the card's security
 * code when the storefront asks the shopper for it (issue 32: a CVV must never be stored, not even for a moment).
 *
 * Body: { cvv2?: "123" }. The logged-in customer who owns the session's card only (another customer's session is a
 * 404, like a missing one). The CVV goes from this request through the payment module's updatePaymentSession (a plain
 * module call; Medusa stores only the provider's output) into the provider's one charge for the payment collection
 * (core/saved-cards/saved-card-payment.ts) and the rebill request: nothing stores, logs or echoes it.
 *
 * Answers as the direct card step does: 200 { payment_session } (captured; pending when the gateway's answer was
 * lost), 402 payment_declined with the gateway's reason, 400 bad input or another session of this collection already
 * paying, 404, 409 when already paid. Completing the cart afterwards takes no second charge.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import type { StorePaynetEasySavedCardBodyType } from "../../../validators"
import { updateSessionUnderCartLock } from "../../locked-session-update"

export const POST = async (req: AuthenticatedMedusaRequest<StorePaynetEasySavedCardBodyType>, res: MedusaResponse) => {
  const customerId = req.auth_context.actor_id
  await updateSessionUnderCartLock(req, res, { pay_saved_card: { cvv: req.validatedBody.cvv2 ?? null } }, (session) => {
    const data = session.data ?? {}
    if (typeof data.card_id !== "string" || data.card_owner !== customerId) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${session.id} was not found`)
    }
  })
}

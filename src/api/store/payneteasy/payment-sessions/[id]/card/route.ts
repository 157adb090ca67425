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
import { ContainerRegistrationKeys, MedusaError, Modules, PaymentSessionStatus } from "@medusajs/framework/utils"
import { sessionView as view } from "../../../session-view"
import type { StorePaynetEasyCardBodyType } from "../../../validators"

export const POST = async (req: MedusaRequest<StorePaynetEasyCardBodyType>, res: MedusaResponse) => {
  const body = req.validatedBody

  const paymentModule = req.scope.resolve(Modules.PAYMENT)
  const id = req.params.id
  const load = async () => {
    const [found] = await paymentModule.listPaymentSessions(
      { id },
      { select: ["id", "provider_id", "status", "data", "amount", "raw_amount", "currency_code", "authorized_at", "payment_collection_id"] }
    )
    return found
  }
  const first = await load()
  if (!first) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${id} was not found`)
  }
  if (!first.provider_id.startsWith("pp_payneteasy_")) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "This payment session does not belong to PaynetEasy")
  }

  // Serialize with everything else that authorizes this session (cart completion, the callback's settle-session):
  // they lock the cart id. Without it, a late decline callback for attempt n could write its (stale) outcome over
  // attempt n+1's. Inside the lock the session is read again, so we act on the latest data.
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({
    entity: "cart_payment_collection",
    fields: ["cart_id"],
    filters: { payment_collection_id: first.payment_collection_id },
  })
  const lockKey = (links[0] as { cart_id?: string } | undefined)?.cart_id ?? first.id
  const locking = req.scope.resolve(Modules.LOCKING)

  const updated = await locking.execute(
    lockKey,
    async () => {
      const session = (await load())!
      if (session.authorized_at || session.status === PaymentSessionStatus.AUTHORIZED || session.status === PaymentSessionStatus.CAPTURED) {
        return undefined
      }
      return paymentModule.updatePaymentSession({
        id: session.id,
        // The validated card goes to the provider, which parses it again; the session's own data is the base.
        data: {
          ...(session.data ?? {}),
          card: body.card,
          ...(body.payer ? { payer: body.payer } : {}),
          client_ip: req.ip,
        },
        amount: (session as any).raw_amount ?? session.amount,
        currency_code: session.currency_code,
      })
    },
    { timeout: 30 }
  )
  if (!updated) {
    res.status(409).json({ type: "not_allowed", message: "This payment session is already paid" })
    return
  }

  if (updated.status === PaymentSessionStatus.ERROR) {
    const error = (updated.data as { error?: { message?: string } } | undefined)?.error
    res.status(402).json({
      type: "payment_declined",
      message: error?.message ?? "The payment was declined",
      payment_session: view(updated as any),
    })
    return
  }
  res.status(200).json({ payment_session: view(updated as any) })
}

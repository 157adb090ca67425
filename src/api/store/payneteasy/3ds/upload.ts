/**
 * Shared handler of the 3-D Secure upload routes (POST /store/payneteasy/3ds/:session_id/{method,cres,pares}).
 *
 * The storefront posts what the browser / ACS gave it; we hand it to the provider through the payment module's
 * updatePaymentSession (`data.threeDS`), a plain module call and not a workflow, so the values are never persisted as
 * workflow input. The provider sends the upload with its own credentials (src/core/checkout/three-ds.ts) and
 * returns the refreshed session without the upload in it.
 * The body was validated by the route's middleware (validateAndTransformBody with ../validators.ts, value-free
 * messages). Answers: 200 { payment_session } (status authorized / captured / requires_more / pending); 402 when the
 * gateway then declined; 400 bad input; 404 unknown session; 409 when the session is already paid or the gateway has no 3-D Secure
 * in progress for it.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { BigNumberInput } from "@medusajs/framework/types"
import { MedusaError, Modules, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { ThreeDSKind } from "../../../../core/checkout/three-ds"
import { sessionAmount, sessionView as view } from "../session-view"
import type { StorePaynetEasyThreeDSBodyType } from "../validators"

export function uploadRoute<K extends ThreeDSKind>(kind: K) {
  return async (req: MedusaRequest<StorePaynetEasyThreeDSBodyType[K]>, res: MedusaResponse) => {
    const upload = { ...req.validatedBody, kind }
    const paymentModule = req.scope.resolve(Modules.PAYMENT)
    const id = req.params.session_id
    const [session] = await paymentModule.listPaymentSessions(
      { id },
      { select: ["id", "provider_id", "status", "data", "amount", "raw_amount", "currency_code", "authorized_at"] }
    )
    if (!session || !session.provider_id.startsWith("pp_payneteasy_")) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `PaynetEasy payment session ${id} was not found`)
    }
    if (session.authorized_at || session.status === PaymentSessionStatus.AUTHORIZED || session.status === PaymentSessionStatus.CAPTURED) {
      res.status(409).json({ type: "not_allowed", message: "This payment session is already paid" })
      return
    }
    let updated
    try {
      updated = await paymentModule.updatePaymentSession({
        id: session.id,
        data: { ...(session.data ?? {}), threeDS: upload },
        amount: sessionAmount(session) as BigNumberInput,
        currency_code: session.currency_code,
      })
    } catch (e) {
      if (MedusaError.isMedusaError(e) && (e as MedusaError).type === MedusaError.Types.NOT_ALLOWED) {
        res.status(409).json({ type: "not_allowed", message: (e as Error).message })
        return
      }
      throw e
    }
    if (updated.status === PaymentSessionStatus.ERROR) {
      const error = (updated.data as { error?: { message?: string } } | undefined)?.error
      res.status(402).json({ type: "payment_declined", message: error?.message ?? "The payment was declined", payment_session: view(updated) })
      return
    }
    res.status(200).json({ payment_session: view(updated) })
  }
}

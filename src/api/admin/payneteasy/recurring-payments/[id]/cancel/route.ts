/**
 * `POST /admin/payneteasy/recurring-payments/:id/cancel` → `{ recurring_payment, gateway_cancelled, note }`: cancels it
 * here and stops its schedule at the gateway (workflows/payneteasy/recurring/cancel.ts). `gateway_cancelled` is true
 * only when the gateway confirmed the stop (its reply, or STATUS after a lost one); otherwise `note` says why (the
 * gateway's refusal, or that it could not be confirmed) and what a person must do. 404 for an unknown id, 409 when
 * there is nothing to cancel or a charge / set-up holds the recurring payment; cancelling twice answers the same row.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { PAYNETEASY_MODULE, paynetEasyModule } from "../../../../../../modules/payneteasy"
import { cancelRecurringPayment } from "../../../../../../workflows/payneteasy/recurring/cancel"
import { actorOf, sendError } from "../../../payouts/http"
import { recurringPaymentViews } from "../../../../../../core/dashboard/recurring-view"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  try {
    const { row, gateway_cancelled, note } = await cancelRecurringPayment(req.scope, req.params.id, actorOf(req))
    const charges = await paynetEasyModule(req.scope).listPaynetEasyRecurringCharges({ recurring_payment_row_id: row.id })
    res.status(200).json({ recurring_payment: (await recurringPaymentViews(req.scope, [row], charges))[0], gateway_cancelled, note })
  } catch (e) {
    return sendError(res, e)
  }
}

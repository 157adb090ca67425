/**
 * `POST /admin/payneteasy/recurring-payments/:id/cancel` → `{ recurring_payment, gateway_cancelled: false, note }`:
 * marks it cancelled here (workflows/payneteasy/recurring/cancel.ts). 404 for an unknown id, 409 when there is nothing
 * to cancel; cancelling twice answers the same row. `gateway_cancelled` is false because the gateway documents no
 * cancel call: `note` says what a person must do.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { PAYNETEASY_MODULE } from "../../../../../../modules/payneteasy"
import { CANCEL_NOTE, cancelRecurringPayment } from "../../../../../../workflows/payneteasy/recurring/cancel"
import { actorOf, sendError } from "../../../payouts/http"
import { recurringPaymentView } from "../../../_lib/recurring-view"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  try {
    const row = await cancelRecurringPayment(req.scope, req.params.id, actorOf(req))
    const charges = await (req.scope.resolve(PAYNETEASY_MODULE) as any).listPaynetEasyRecurringCharges({ recurring_payment_row_id: row.id })
    res.status(200).json({ recurring_payment: recurringPaymentView(row, charges), gateway_cancelled: false, note: CANCEL_NOTE })
  } catch (e) {
    return sendError(res, e)
  }
}

/**
 * `POST /admin/payneteasy/recurring-payments/:id/retry` → `{ recurring_payment }`: sets up a recurring payment that
 * `needs_attention` again (core/recurring/retry-set-up.ts) and answers the row as the set-up left it:
 * `active` (made, or found at the gateway and adopted), `failed` (refused, with the gateway's reason), `needs_attention`
 * again (with the new reason), or `pending` while Medusa's step retries are still running. 404 for an unknown id, 409
 * when it does not need attention (already active, cancelled, failed, not set up, or being set up right now) or needs
 * it although it was set up (a charge the gateway never reported).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { paynetEasyModule } from "../../../../../../modules/payneteasy"
import { retryRecurringSetUp } from "../../../../../../workflows/payneteasy/recurring/retry-set-up"
import { sendError } from "../../../payouts/http"
import { recurringPaymentViews } from "../../../../../../core/dashboard/recurring-view"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  try {
    const row = await retryRecurringSetUp(req.scope, req.params.id)
    const charges = await paynetEasyModule(req.scope).listPaynetEasyRecurringCharges({ recurring_payment_row_id: row.id })
    res.status(200).json({ recurring_payment: (await recurringPaymentViews(req.scope, [row], charges))[0] })
  } catch (e) {
    return sendError(res, e)
  }
}

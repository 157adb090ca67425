/**
 * POST /admin/payneteasy/orders/:id/rebill { card_id, amount? } — charges the order's outstanding amount (or `amount`,
 * at most the outstanding) to one of the order customer's saved cards (workflows/payneteasy/saved-cards/admin-rebill.ts).
 * 200 → { payment, gateway_status, rebill } (a repeated request answers the first one's result with rebill.replayed);
 * a decline → 400 with the gateway's reason, nothing recorded as paid.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { adminRebillOrderWorkflow } from "../../../../../../workflows/payneteasy/saved-cards/admin-rebill"
import type { AdminPaynetEasyRebillBodyType } from "../../../_lib/saved-card-validators"

export const POST = async (req: AuthenticatedMedusaRequest<AdminPaynetEasyRebillBodyType>, res: MedusaResponse) => {
  const body = req.validatedBody
  const { result } = await adminRebillOrderWorkflow(req.scope).run({
    input: { order_id: req.params.id, card_id: body.card_id, amount: body.amount, requested_by: req.auth_context?.actor_id },
  })
  const { payment, gateway_status, ...rebill } = result
  if (result.state !== "succeeded") {
    res.status(400).json({
      type: "payment_declined",
      message: `PaynetEasy did not approve the rebill: ${result.error ?? gateway_status ?? "no final answer yet"}`,
      gateway_status,
      rebill,
    })
    return
  }
  res.json({ payment, gateway_status, rebill })
}

/**
 * `POST /admin/payneteasy/payouts/:id/confirm` (Idempotency-Key header) → `{ payout }`: the pay step of a two-step
 * payout whose check was approved (confirm-payout.ts). 409 when it cannot be paid or was confirmed by another request.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { runConfirmPayout } from "../../../../../../workflows/payneteasy/payouts/confirm-payout"
import { payoutView } from "../../../../../../core/payouts/payout-state"
import { actorOf, idempotencyKey, invalid, sendError } from "../../http"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const key = idempotencyKey(req)
  if (!key.ok) return invalid(res, "Idempotency-Key", key.message)
  try {
    const { payout } = await runConfirmPayout(req.scope, { id: req.params.id, idempotency_key: key.key, actor: actorOf(req) })
    res.status(200).json({ payout: payoutView(payout) })
  } catch (e) {
    return sendError(res, e)
  }
}

/**
 * `GET /admin/payneteasy/payouts/:id` → `{ payout }` with `payout.history` (oldest first), read from one database
 * snapshot (the service's payoutWithHistory) so the status and the history agree. Admin authentication.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { historyView, payoutService, payoutView, type HistoryRow, type PayoutRow } from "../../../../../workflows/payneteasy/payouts/payout-state"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const found = await payoutService(req.scope).payoutWithHistory(req.params.id)
  if (!found) {
    res.status(404).json({ type: "not_found", message: `payout ${req.params.id} not found` })
    return
  }
  const payout = found.payout as PayoutRow
  res.json({ payout: { ...payoutView(payout), history: (found.history as HistoryRow[]).map(historyView) } })
}

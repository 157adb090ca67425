/** `GET /admin/payneteasy/payouts/:id` → `{ payout }` with `payout.history` (oldest first). Admin authentication. */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { getPayout, historyView, payoutService, payoutView, type HistoryRow } from "../../../../../workflows/payneteasy/payouts/payout-state"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const payout = await getPayout(req.scope, req.params.id)
  if (!payout) {
    res.status(404).json({ type: "not_found", message: `payout ${req.params.id} not found` })
    return
  }
  const history = (await payoutService(req.scope).listPaynetEasyPayoutHistories(
    { payout_id: payout.id },
    { order: { at: "ASC", created_at: "ASC" }, take: 1000 }
  )) as unknown as HistoryRow[]
  res.json({ payout: { ...payoutView(payout), history: history.map(historyView) } })
}

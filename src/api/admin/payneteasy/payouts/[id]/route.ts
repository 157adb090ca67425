/**
 * `GET /admin/payneteasy/payouts/:id` → `{ payout }` with `payout.history` (oldest first), both read from one database
 * snapshot (the service's readSnapshot) so the status and the history agree, and `people`: each admin actor
 * (`user:<id>`) named in it → that admin's e-mail, so the dashboard names people the way Medusa does. Admin
 * authentication.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { userEmails } from "../../../../../core/dashboard/users"
import { historyView, payoutService, payoutView, type HistoryRow, type PayoutRow } from "../../../../../core/payouts/payout-state"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const svc = payoutService(req.scope)
  const found = await svc.readSnapshot(async (context) => {
    const [payout] = (await svc.listPaynetEasyPayouts({ id: req.params.id }, { take: 1 }, context)) as unknown as PayoutRow[]
    if (!payout) return undefined
    const history = (await svc.listPaynetEasyPayoutHistories(
      { payout_id: payout.id },
      { order: { at: "ASC", created_at: "ASC" }, take: 1000 },
      context
    )) as unknown as HistoryRow[]
    return { payout, history }
  })
  if (!found) {
    res.status(404).json({ type: "not_found", message: `payout ${req.params.id} not found` })
    return
  }
  const actors = [found.payout.created_by, found.payout.confirmed_by, ...found.history.map((h) => h.actor)]
  const ids = actors.filter((a): a is string => !!a && a.startsWith("user:")).map((a) => a.slice("user:".length))
  const emails = await userEmails(req.scope, ids)
  const people = Object.fromEntries([...emails].map(([id, email]) => [`user:${id}`, email]))
  res.json({ payout: { ...payoutView(found.payout), history: found.history.map(historyView), people } })
}

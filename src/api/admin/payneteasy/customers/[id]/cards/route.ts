/**
 * GET /admin/payneteasy/customers/:id/cards — the customer's saved cards for the admin widget: the masked card, where
 * it came from (order / verification) and when it was last used. Never the gateway's card reference.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { PAYNETEASY_MODULE, paynetEasyModule } from "../../../../../../modules/payneteasy"
import { adminCardView, type SavedCardRow } from "../../../../../../core/saved-cards/records"

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const rows = (await paynetEasyModule(req.scope).listPaynetEasySavedCards(
    { customer_id: req.params.id, state: "active" },
    { order: { created_at: "DESC" } }
  )) as SavedCardRow[]
  res.json({
    cards: rows.map(adminCardView),
  })
}

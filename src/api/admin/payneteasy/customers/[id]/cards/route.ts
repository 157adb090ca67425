/**
 * GET /admin/payneteasy/customers/:id/cards — the customer's saved cards for the admin widget: the masked card, where
 * it came from (order, with its display id / verification) and when it was last used. Never the gateway's card reference.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PAYNETEASY_MODULE, paynetEasyModule } from "../../../../../../modules/payneteasy"
import { adminCardView, type SavedCardRow } from "../../../../../../core/saved-cards/records"

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const rows = (await paynetEasyModule(req.scope).listPaynetEasySavedCards(
    { customer_id: req.params.id, state: "active" },
    { order: { created_at: "DESC" } }
  )) as SavedCardRow[]
  const orderIds = [...new Set(rows.map((r) => r.source_order_id).filter((x): x is string => !!x))]
  const displayIds = new Map<string, number>()
  if (orderIds.length) {
    const { data } = await req.scope.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order", fields: ["id", "display_id"], filters: { id: orderIds } })
    for (const o of data as Array<{ id: string; display_id?: number | null }>) if (o.display_id != null) displayIds.set(o.id, o.display_id)
  }
  res.json({
    cards: rows.map((r) => adminCardView(r, displayIds)),
  })
}

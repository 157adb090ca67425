/**
 * POST /admin/payneteasy/orders/:id/check — "check at the gateway now": STATUS for each PaynetEasy payment of the
 * order (and each known follow-up by serial number), stored with the admin who asked; answers the refreshed panel
 * and `check: { checked, errors }` (a gateway that cannot be reached is an error entry, not a 5xx: the panel still shows).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { buildOrderPanel, checkOrderAtGateway } from "../../../../../../core/dashboard/order-panel"

export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  await buildOrderPanel(req.scope, req.params.id) // 404 for an unknown order before anything is sent
  const check = await checkOrderAtGateway(req.scope, req.params.id, req.auth_context?.actor_id)
  res.json({ check, order: await buildOrderPanel(req.scope, req.params.id) })
}

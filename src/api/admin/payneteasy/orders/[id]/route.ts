/**
 * GET /admin/payneteasy/orders/:id — what the gateway and the plugin know about a Medusa order's PaynetEasy payment:
 * gateway order id(s) and client_orderid, the transactions STATUS reported (stored by the last check), callbacks and
 * shopper returns with what the plugin did, 3-D Secure, reconciliation state and later events with warnings.
 * An order paid otherwise answers `is_payneteasy: false`; an unknown order 404. No gateway call (see …/check).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { buildOrderPanel } from "../../../../../core/dashboard/order-panel"

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  res.json({ order: await buildOrderPanel(req.scope, req.params.id) })
}

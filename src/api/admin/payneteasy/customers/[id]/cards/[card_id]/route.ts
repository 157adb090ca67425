/**
 * DELETE /admin/payneteasy/customers/:id/cards/:card_id — the admin removes a customer's saved card (soft delete; it can
 * no longer be charged). A card of another customer, unknown or already deleted → 404.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { SAVED_CARD_ID, softDeleteCard } from "../../../../../../../core/saved-cards/records"

export const DELETE = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const id = req.params.card_id
  if (!SAVED_CARD_ID.test(id)) throw new MedusaError(MedusaError.Types.INVALID_DATA, "card_id must be a saved card id (pnecard_…)")
  await softDeleteCard(req.params.id, id)
  res.json({ id, deleted: true })
}

/**
 * DELETE /store/payneteasy/cards/:id — deletes one of the logged-in customer's saved cards: { id, deleted: true }.
 * A malformed id is a 400; another customer's card (or an unknown or already deleted one) is a 404 and changes nothing.
 * A deleted card can no longer pay (saved-card-payment.ts reads only active, undeleted rows).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { SAVED_CARD_ID, softDeleteCard } from "../../../../../core/saved-cards/records"
import { customerIdOf } from "../customer"

export const DELETE = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const customerId = customerIdOf(req)
  const id = req.params.id
  if (!SAVED_CARD_ID.test(id)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "id must be a saved card id (pnecard_…)")
  }
  await softDeleteCard(customerId, id)
  res.json({ id, deleted: true })
}

/**
 * The logged-in customer of a saved-card store request (Medusa's customer authentication runs first, see
 * middlewares.ts). An identity without a registered customer is a 401 as well.
 */
import type { AuthenticatedMedusaRequest } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"

export function customerIdOf(req: AuthenticatedMedusaRequest): string {
  const id = req.auth_context?.actor_id
  if (!id || req.auth_context?.actor_type !== "customer") {
    throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Log in as a customer to manage saved cards")
  }
  return id
}

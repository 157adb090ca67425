/**
 * POST /admin/payneteasy/attention/:id/handled `{ note? }` — records that the signed-in admin handled the item (who
 * and when). Idempotent: a second call answers the first record. 404 when no attention item has that id.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { markHandled } from "../../../../../../core/dashboard/attention"
import type { AdminPaynetEasyHandledBodyType } from "../../../_lib/validators"

export const POST = async (req: AuthenticatedMedusaRequest<AdminPaynetEasyHandledBodyType>, res: MedusaResponse) => {
  const actor = req.auth_context?.actor_id
  if (!actor) throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "An admin user must be signed in")
  const item = await markHandled(req.scope, req.params.id, actor, req.validatedBody?.note)
  if (!item) throw new MedusaError(MedusaError.Types.NOT_FOUND, `No attention item with id "${req.params.id}"`)
  res.json({ item })
}

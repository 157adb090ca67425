/**
 * POST /admin/payneteasy/doctor `{ provider_id? }` — the connection check for each registered PaynetEasy provider
 * (or one): base URL, endpoint, login masked, flow, capture mode, whether an RSA key is loaded (never the key) and
 * a live check (one STATUS for a made-up order, src/gateway/doctor.ts — the same as `medusa-payneteasy doctor`)
 * that says in words whether the credentials work.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { checkProvider, paynetEasyProviderIds } from "../../../../core/connection/providers"
import type { AdminPaynetEasyDoctorBodyType } from "../_lib/validators"

export const POST = async (req: AuthenticatedMedusaRequest<AdminPaynetEasyDoctorBodyType>, res: MedusaResponse) => {
  const wanted = req.validatedBody?.provider_id
  const ids = await paynetEasyProviderIds(req.scope)
  if (wanted && !ids.includes(wanted)) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `No PaynetEasy provider "${wanted}" is registered`)
  }
  const providers = await Promise.all((wanted ? [wanted] : ids).map((id) => checkProvider(req.scope, id)))
  res.json({ providers })
}

/**
 * GET  /store/payneteasy/cards — the logged-in customer's saved cards, masked: { cards: [{ id, brand, bin, last4,
 *      exp_month, exp_year, holder, created_at }] }. Pending hosted verifications are settled first (add-card.ts).
 * POST /store/payneteasy/cards { return_url? } — starts a zero-amount verification on the gateway's hosted page:
 *      { redirect_url }. The card is saved once the gateway approves it.
 * The gateway's card reference never appears in a response.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { activeCardsOf, publicCard } from "../../../../core/saved-cards/records"
import { startCardVerificationWorkflow } from "../../../../workflows/payneteasy/saved-cards/add-card"
import { settleCardVerifications } from "../../../../core/saved-cards/verification-callback"
import { customerIdOf } from "./customer"
import type { StorePaynetEasyAddCardBodyType } from "./validators"

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const customerId = customerIdOf(req)
  await settleCardVerifications(req.scope, customerId)
  const rows = await activeCardsOf(customerId)
  res.json({ cards: rows.map(publicCard) })
}

export const POST = async (req: AuthenticatedMedusaRequest<StorePaynetEasyAddCardBodyType>, res: MedusaResponse) => {
  const customerId = customerIdOf(req)
  const { result } = await startCardVerificationWorkflow(req.scope).run({
    input: { customer_id: customerId, return_url: req.validatedBody?.return_url, ip: req.ip },
  })
  res.json({ redirect_url: result.redirectUrl })
}

/**
 * A guard in front of Medusa's store route that creates payment sessions (POST /store/payment-collections/:id/
 * payment-sessions, and any later route under it): session `data` holding a CVV, a card number or a card object is
 * answered 400 before Medusa runs, because Medusa writes that `data` to `payment_session.data` before any provider
 * sees it (payment-module.js createPaymentSession) — a CVV must never be stored, not even for a moment (issue 32).
 * The answer names the fields (never their values) and where card data goes instead. Every provider's sessions are
 * guarded: no provider may receive card data this way. `data.merchant_initiated` (the admin rebill's charge-on-
 * creation, saved-card-payment.ts) is refused from storefronts too.
 *
 * Also: a new session on a collection that a saved card has paid (or may have: outcome unknown) is answered 409
 * before Medusa deletes the old sessions, which the provider refuses for that one (saved-card-payment.ts), so the
 * storefront gets a clear answer rather than Medusa's "Could not delete all payment sessions" (a 500). A charge made
 * while the request waits for the cart's lock is caught again under it (paid-collection-guard.ts).
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { cardDataRefusal, cardLikeFields } from "../core/checkout/card-like"
import { liveCharge } from "../core/saved-cards/card-charges"

export function refuseCardDataInSessionData(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const body = req.body as { data?: unknown; context?: unknown } | undefined
  const fields = [...cardLikeFields(body?.data, "data"), ...cardLikeFields(body?.context, "context")]
  if (fields.length) {
    res.status(400).json({ type: "invalid_data", message: cardDataRefusal(fields) })
    return
  }
  const data = body?.data as Record<string, unknown> | undefined
  if (data && typeof data === "object" && data.merchant_initiated !== undefined) {
    res.status(400).json({ type: "invalid_data", message: "data.merchant_initiated is set by the admin rebill only" })
    return
  }
  next()
}

/** The words a new session on this collection is refused with while a saved card pays it (or may have), or undefined. */
export async function savedCardPaymentRefusal(collectionId: string): Promise<string | undefined> {
  const live = await liveCharge(collectionId)
  if (!live) return undefined
  const how = live.state === "approved" ? "paid" : "being paid (its outcome is not known yet)"
  return `This payment collection is already ${how} with a saved card (payment session ${live.session_id}): complete the cart`
}

export async function refuseWhilePaidBySavedCard(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const collectionId = req.params?.id
  const refusal = collectionId ? await savedCardPaymentRefusal(collectionId) : undefined
  if (refusal) {
    res.status(409).json({ type: "not_allowed", message: refusal })
    return
  }
  next()
}

/**
 * Paying a checkout with a saved card: the storefront creates the payment session with `data.card_id` (one of the
 * logged-in customer's cards, never a guest's) and optionally `data.cvv2`. No hosted page: the session amount is
 * charged at once with make-rebill (a sale), and the session is born authorized/captured — or in error with the
 * gateway's reason, which leaves the cart usable (a new session can be created, as after any decline).
 *
 * When the rebill may have reached the gateway but neither its reply nor STATUS told how it ended, the session is born
 * `pending` with `gatewayStatus: "unknown"` (and the gateway order id when known), never in error: failing it would
 * make Medusa delete the session, a charge the gateway did take would then belong to no session, and a shopper paying
 * again at once could be charged twice. The gateway's callback settles it, or reconciliation, which asks STATUS by the
 * session's client_orderid (checkout.ts checkStatus, workflows/payneteasy/reconcile.ts isDiscoverable).
 *
 * The cvv2 goes only into the request; the provider's output clears it (payment-data/payer.ts cardKeysCleared), so it is never stored.
 * The card-ref-id is read from our table by card id and owner; it never enters session data.
 */
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { InitiatePaymentInput, InitiatePaymentOutput } from "@medusajs/framework/types"
import { newSessionData } from "./checkout"
import type { ProviderContext } from "./context"
import { wrap } from "./errors"
import { storefrontSafe } from "../../payment-data/payer"
import { markUsed, ownedActiveCard, SAVED_CARD_ID } from "../../saved-cards/records"
import { rebillCard } from "../../saved-cards/card-gateway"
import { fromStatus } from "./session-outcome"

type Data = Record<string, unknown>

export const wantsSavedCard = (data: Data | undefined) => data?.card_id !== undefined && data?.card_id !== null

export async function payWithSavedCard(ctx: ProviderContext, input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
  const data = input.data ?? {}
  const cardId = data.card_id
  if (typeof cardId !== "string" || !SAVED_CARD_ID.test(cardId)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "data.card_id must be a saved card id (pnecard_…)")
  }
  const cvv2 = data.cvv2
  if (cvv2 !== undefined && cvv2 !== null && (typeof cvv2 !== "string" || !/^[0-9]{3,4}$/.test(cvv2))) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "data.cvv2 must be 3 or 4 digits")
  }
  const customerId = (input.context?.customer as { id?: string } | undefined)?.id
  if (!customerId) {
    throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Paying with a saved card needs a logged-in customer")
  }
  const card = await ownedActiveCard(customerId, cardId)
  const base = newSessionData(ctx, input, "sale") // make-rebill is a sale: the money is taken at once
  const { session_id: sessionId, currency } = base
  const payer = (data.payer ?? {}) as { ip?: unknown }
  const backend = ctx.options.backendUrl.replace(/\/+$/, "")
  const result = await rebillCard(ctx.client, {
    clientOrderId: base.clientOrderId,
    cardRefId: card.card_ref_id!,
    amount: base.amount,
    currency,
    description: `Order ${sessionId}`,
    ipaddress: typeof payer.ip === "string" && payer.ip ? payer.ip : "0.0.0.0",
    cvv2: typeof cvv2 === "string" ? cvv2 : undefined,
    serverCallbackUrl: `${backend}/payneteasy/callback`,
  }).catch((e) => {
    throw wrap("REBILL", e)
  })
  if (result.kind === "unknown") {
    ctx.logger?.warn(`PaynetEasy: saved-card payment ${base.clientOrderId}: outcome unknown, kept pending for the callback or reconciliation (${result.reason})`)
    const unknown = { ...base, ...(result.orderId ? { orderId: result.orderId } : {}), gatewayStatus: "unknown" }
    return { id: base.clientOrderId, data: { ...storefrontSafe(data), ...unknown, card_id: card.id }, status: PaymentSessionStatus.PENDING }
  }
  if (result.kind === "absent") {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "PaynetEasy did not answer the saved-card payment; nothing was charged, please try again")
  }
  const mapped = fromStatus({ ...base, orderId: result.orderId }, result.status)
  if (mapped.status === PaymentSessionStatus.CAPTURED || mapped.status === PaymentSessionStatus.AUTHORIZED) {
    await markUsed(card.id).catch(() => undefined)
  }
  return { id: base.clientOrderId, data: { ...storefrontSafe(data), ...mapped.data, card_id: card.id }, status: mapped.status }
}

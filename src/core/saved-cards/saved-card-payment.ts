/**
 * Paying with a saved card: a checkout (`data.card_id`, the logged-in customer's card) or a subscription engine's
 * renewal in Stripe's card-on-file shape (`data.payment_method` = a saved card id, `off_session: true`).
 *
 * The session is created without any gateway call: it only checks that the card is the session customer's, active,
 * and records it. The card is charged (make-rebill, a sale) later, by one of two verbs:
 *   - updatePayment with a CVV, from POST /store/payneteasy/payment-sessions/:id/saved-card (the storefront's way);
 *   - authorizePayment, when Medusa authorizes the session (cart completion, under the cart's lock; an engine's
 *     authorizePaymentSessionStep) and nothing was charged yet: no CVV (the cardholder is absent). A session whose
 *     own attempt was declined stays declined here: only the shopper (the route) starts another attempt.
 * Either way the charge goes through one intent per payment collection (models/card-charge.ts): under Medusa's
 * locking module (key: the collection) the live intent is read; if another session holds it, nothing is sent and the
 * caller is refused; if this session holds it, its outcome is settled by STATUS on the same client order id; only when
 * there is none is a new intent recorded (a unique index makes it one per collection across instances) and the rebill
 * sent once. A session holding a live intent cannot be deleted (releaseSavedCardSession), so a charge that went
 * through always keeps its session: Medusa cannot orphan it by creating another one.
 *
 * The CVV exists only in memory: it comes in the request, goes into the rebill's fields and nowhere else (not in the
 * intent, the session data, an error or a log line). Session data holding card data is refused before Medusa stores
 * it (api/payment-session-data-guard.ts) and here again. The card-ref-id is read by card id and owner; it never
 * enters session data.
 */
import { container } from "@medusajs/framework"
import { MedusaError, Modules, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { InitiatePaymentInput, InitiatePaymentOutput } from "@medusajs/framework/types"
import { checkStatus, DEFAULT_ORDER_DESCRIPTION, newSessionData } from "../checkout/checkout"
import type { ProviderContext } from "../checkout/context"
import { wrap } from "../checkout/errors"
import { storefrontSafe } from "../checkout/payer"
import { providerKeysCleared } from "../checkout/provider-keys"
import { cardDataRefusal, cardLikeFields } from "../checkout/card-like"
import { clientOrderIdFor } from "../checkout/client-order-id"
import type { SessionData } from "../checkout/session-data"
import { markUsed, ownedActiveCard, SAVED_CARD_ID } from "./records"
import { rebillCard, rebillStatus } from "./card-gateway"
import { chargesOfSession, liveCharge, recordCharge, updateCharge, type CardChargeRow } from "./card-charges"
import { DEFAULT_PROCESSING_WINDOW_MS, pastProcessingWindow, type StatusReply } from "../connection"
import { ensureWatched, SESSION_TARGET, watchService } from "../reconciliation/watch"
import { fromStatus, stripOutcome } from "../checkout/session-outcome"
import { LOCK_KEYS } from "../locks/lock-keys"
import { pluginCallbackUrl } from "../connection/plugin-urls"
import { paymentLogger } from "../telemetry/payment-log"

type Data = Record<string, unknown>
type Outcome = { data: Data; status: PaymentSessionStatus }

/** Our session data of a saved-card session (what initiate wrote next to the common session fields). */
type SavedCardData = SessionData & { card_id: string; card_owner: string; off_session?: boolean }

const present = (v: unknown) => v !== undefined && v !== null
/** The provider's logger, its lines ending with the charge's ids (core/telemetry/payment-log.ts). */
const idsLog = (ctx: ProviderContext, sessionId: string, clientOrderId: string, gatewayOrderId?: string | null) =>
  ctx.logger && paymentLogger(ctx.logger, { paymentSessionId: sessionId, gatewayOrderId, clientOrderId })

/** A new session asks for a saved card: `card_id`, or Stripe's card-on-file `payment_method` (with `off_session`). */
export const wantsSavedCard = (data: Data | undefined) =>
  present(data?.card_id) || (present(data?.payment_method) && (data?.off_session === true || SAVED_CARD_ID.test(String(data?.payment_method))))

/** A session this file started (its stored data names the card and its owner). */
export const isSavedCardSession = (data: Data | undefined): data is SavedCardData =>
  typeof data?.card_id === "string" && typeof data?.card_owner === "string"

/** Not charged yet: no attempt has left anything in the session data. */
const uncharged = (data: SavedCardData) => !data.orderId && !data.gatewayStatus

export async function startSavedCardSession(ctx: ProviderContext, input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
  const data = input.data ?? {}
  const cardData = cardLikeFields(data)
  if (cardData.length) throw new MedusaError(MedusaError.Types.INVALID_DATA, cardDataRefusal(cardData))
  const cardId = present(data.card_id) ? data.card_id : data.payment_method
  if (typeof cardId !== "string" || !SAVED_CARD_ID.test(cardId)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "data.card_id (or data.payment_method) must be a saved card id (pnecard_…)")
  }
  const customerId = (input.context?.customer as { id?: string } | undefined)?.id
  if (!customerId) {
    throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Paying with a saved card needs a logged-in customer")
  }
  const card = await ownedActiveCard(customerId, cardId)
  const base = newSessionData(ctx, input, "sale") // make-rebill is a sale: the money is taken when it is charged
  const own = { card_id: card.id, card_owner: customerId, off_session: data.off_session === true }
  // provider-only keys the storefront wrote are cleared (written null), as on every path (checkout/provider-keys.ts)
  const session: SavedCardData = { ...storefrontSafe(data), ...providerKeysCleared(data), ...base, ...own }
  if (data.merchant_initiated === true) {
    // The admin rebill (workflows/payneteasy/saved-cards/admin-rebill.ts) expects its session charged on creation:
    // the same one-charge intent, now (the store guard refuses this key from storefronts).
    const outcome = await chargeSavedCard(ctx, session, { newAttempt: true })
    return { id: base.clientOrderId, ...outcome }
  }
  return { id: base.clientOrderId, data: session, status: PaymentSessionStatus.PENDING }
}

/** getPaymentStatus of a saved-card session nothing was charged for yet: pending, without asking the gateway. */
export const notChargedYet = (data: Data | undefined): Outcome | undefined =>
  isSavedCardSession(data) && uncharged(data) ? { data, status: PaymentSessionStatus.PENDING } : undefined

/**
 * Charges the session's saved card at most once per payment collection (see the header), or settles the charge this
 * session already holds. The CVV only travels into the rebill request.
 */
export async function chargeSavedCard(ctx: ProviderContext, data: SavedCardData, how: { cvv?: string; newAttempt: boolean }): Promise<Outcome> {
  const collectionId = await collectionOf(data.session_id)
  return underCollectionLock(collectionId, async () => {
    const live = await liveCharge(collectionId)
    if (live && live.session_id !== data.session_id) throw alreadyPaying(live)
    if (live) return settle(ctx, live, data)
    // Authorizing a session whose own attempt was declined does not try again without the shopper: it stays declined.
    if (!how.newAttempt && !uncharged(data)) return checkStatus(ctx, data)
    return sendNewCharge(ctx, collectionId, data, how.cvv)
  })
}

/**
 * updatePayment with `pay_saved_card: { cvv? }` (the saved-card route's hand-off, a transient key: card.ts): the
 * charge now, the CVV straight into it.
 */
export function payNow(ctx: ProviderContext, data: SessionData, order: unknown): Promise<Outcome> {
  if (!isSavedCardSession(data)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "This payment session was not created with a saved card (data.card_id)")
  }
  const cvv = (order as { cvv?: unknown }).cvv
  if (cvv !== undefined && cvv !== null && (typeof cvv !== "string" || !/^[0-9]{3,4}$/.test(cvv))) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "cvv2 must be 3 or 4 digits")
  }
  return chargeSavedCard(ctx, data, { cvv: typeof cvv === "string" ? cvv : undefined, newAttempt: true })
}

/**
 * deletePayment of a saved-card session: refused while its charge went through or may have (Medusa would otherwise
 * delete the only record of a payment the customer made); allowed once the charge is known to have taken nothing.
 */
export async function releaseSavedCardSession(ctx: ProviderContext, data: SavedCardData): Promise<void> {
  const collectionId = await collectionOf(data.session_id).catch(() => undefined)
  if (!collectionId) return
  await underCollectionLock(collectionId, async () => {
    const live = await liveCharge(collectionId)
    if (!live || live.session_id !== data.session_id) return
    const settled = await settle(ctx, live, data)
    if (settled && settled.status !== PaymentSessionStatus.ERROR && settled.status !== PaymentSessionStatus.CANCELED) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Payment session ${data.session_id} holds a saved-card payment (${live.state === "approved" ? "paid" : "outcome not known yet"}); ` +
          "it cannot be replaced: complete the cart with it"
      )
    }
  })
}

function alreadyPaying(live: CardChargeRow): MedusaError {
  return new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `This payment is already ${live.state === "approved" ? "paid" : "being paid"} with a saved card (payment session ${live.session_id}); nothing was charged`
  )
}

async function collectionOf(sessionId: string): Promise<string> {
  const [session] = await container.resolve(Modules.PAYMENT).listPaymentSessions({ id: sessionId }, { select: ["id", "payment_collection_id"] })
  if (!session) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${sessionId} was not found`)
  return session.payment_collection_id
}

function underCollectionLock<T>(collectionId: string, run: () => Promise<T>): Promise<T> {
  return container.resolve(Modules.LOCKING).execute(LOCK_KEYS.cardCharge(collectionId), run, { timeout: 60 })
}

/** The session data of `charge`'s attempt (its client order id and attempt number), outcome fields cleared. */
function attemptData(data: SavedCardData, clientOrderId: string): SessionData {
  const attempt = Number(/-a([0-9]+)$/.exec(clientOrderId)?.[1] ?? 1)
  return stripOutcome(data, { clientOrderId, attempt, orderId: "" })
}

/**
 * The outcome of this session's live charge, asked by STATUS on its own client order id. The charge was sent (or may
 * have been), so a STATUS that does not find it is NOT "nothing was charged": a gateway still processing the rebill
 * shows nothing of it yet (core/connection/money-request.ts). It stays pending — the session too ("confirming") —
 * and nothing is sent again, under this client order id or a new one; once the processing window
 * (`processingWindowMs`) has passed since it was recorded, it is flagged for a person (the attention queue).
 * When STATUS cannot be had, likewise: pending, never a failure, never a re-send.
 */
async function settle(ctx: ProviderContext, live: CardChargeRow, data: SavedCardData): Promise<Outcome> {
  const base = attemptData(data, live.client_orderid)
  const known = live.gateway_order_id ? { orderId: live.gateway_order_id } : {}
  const stillPending = (): Outcome => ({
    data: { ...base, ...known, gatewayStatus: live.state === "approved" ? "approved" : "unknown" },
    status: live.state === "approved" ? PaymentSessionStatus.CAPTURED : PaymentSessionStatus.PENDING,
  })
  let reply: StatusReply | undefined
  try {
    reply = await rebillStatus(ctx.client, live.client_orderid, live.gateway_order_id ?? undefined)
  } catch (e) {
    idsLog(ctx, data.session_id, live.client_orderid, live.gateway_order_id)?.warn(`PaynetEasy: saved-card payment ${live.client_orderid}: STATUS failed, kept ${live.state} (${(e as Error).message})`)
    return stillPending()
  }
  if (!reply) {
    const windowMs = ctx.options.processingWindowMs ?? DEFAULT_PROCESSING_WINDOW_MS
    if (live.state !== "approved" && pastProcessingWindow(live.created_at, new Date(), windowMs)) {
      await flagUnshownCharge(ctx, live, data, windowMs)
    }
    return stillPending()
  }
  return record(live, fromStatus(base, reply))
}

/**
 * A charge the gateway has not shown within its processing window: it stays live (no second charge for this
 * collection) and its session's reconciliation watch is flagged, which puts it in the attention queue.
 */
async function flagUnshownCharge(ctx: ProviderContext, live: CardChargeRow, data: SavedCardData, windowMs: number): Promise<void> {
  const note =
    `the saved-card charge ${live.client_orderid} was sent, its reply was lost, and the gateway's STATUS has not shown it within the ` +
    `processing window (${Math.round(windowMs / 60_000)} min). Nothing was sent again and no other charge can start for this payment: ` +
    "check the order in the PaynetEasy back office"
  if (live.error_message === note) return
  await updateCharge(live.id, { error_message: note.slice(0, 500) })
  const [session] = await container.resolve(Modules.PAYMENT).listPaymentSessions({ id: data.session_id }, { select: ["id", "provider_id"] })
  if (!session) return
  await ensureWatched(container, data.session_id, session.provider_id, new Date(live.created_at))
  const [row] = await watchService(container).listPaynetEasyReconciliations({ session_id: data.session_id, target: SESSION_TARGET }, { take: 1 })
  if (row && row.state === "pending") {
    await watchService(container).updatePaynetEasyReconciliations({ id: row.id, state: "flagged", note, last_checked_at: new Date() })
  }
  idsLog(ctx, data.session_id, live.client_orderid, live.gateway_order_id)?.warn(`PaynetEasy: saved-card payment ${live.client_orderid} not shown by the gateway within the processing window; flagged for a person`)
}

async function sendNewCharge(ctx: ProviderContext, collectionId: string, data: SavedCardData, cvv: string | undefined): Promise<Outcome> {
  const card = await ownedActiveCard(data.card_owner, data.card_id) // deleted since the session was made: 404, nothing sent
  const clientOrderId = clientOrderIdFor(data.session_id, (await chargesOfSession(data.session_id)) + 1)
  const base = attemptData(data, clientOrderId)
  const charge = await recordCharge({
    payment_collection_id: collectionId, session_id: data.session_id, client_orderid: clientOrderId, card_id: card.id,
    customer_id: data.card_owner, amount: base.amount, currency: base.currency, off_session: data.off_session === true,
  })
  const payer = (data.payer ?? {}) as { ip?: unknown }
  const backend = ctx.options.backendUrl.replace(/\/+$/, "")
  const result = await rebillCard(ctx.client, {
    clientOrderId,
    cardRefId: card.card_ref_id!,
    amount: base.amount,
    currency: base.currency,
    description: ctx.options.orderDescription ?? DEFAULT_ORDER_DESCRIPTION,
    ip: typeof payer.ip === "string" && payer.ip ? payer.ip : "0.0.0.0",
    cvv,
    callbackUrl: pluginCallbackUrl(backend),
  }).catch(async (e) => {
    // the gateway refused the rebill itself, or it certainly never left (rebillCard throws only then): nothing was charged
    await updateCharge(charge.id, { state: "not_sent", error_message: (e as Error).message?.slice(0, 500) ?? null })
    throw wrap("REBILL", e)
  })
  if (result.kind === "unknown") {
    idsLog(ctx, data.session_id, clientOrderId)?.warn(`PaynetEasy: saved-card payment ${clientOrderId}: outcome unknown, kept pending for the callback or reconciliation (${result.reason})`)
    const known = result.orderId ? { orderId: result.orderId } : {}
    await updateCharge(charge.id, { state: "pending", gateway_order_id: result.orderId ?? null, gateway_status: "unknown" })
    return { data: { ...base, ...known, gatewayStatus: "unknown" }, status: PaymentSessionStatus.PENDING }
  }
  const outcome = await record(charge, fromStatus({ ...base, ...(result.orderId ? { orderId: result.orderId } : {}) }, result.status))
  if (outcome.status === PaymentSessionStatus.CAPTURED || outcome.status === PaymentSessionStatus.AUTHORIZED) {
    await markUsed(card.id).catch(() => undefined)
  }
  return outcome
}

/** Writes a gateway outcome onto the intent: approved, declined (nothing taken) or still pending. */
async function record(charge: CardChargeRow, outcome: Outcome): Promise<Outcome> {
  const paid = outcome.status === PaymentSessionStatus.CAPTURED || outcome.status === PaymentSessionStatus.AUTHORIZED
  const failed = outcome.status === PaymentSessionStatus.ERROR || outcome.status === PaymentSessionStatus.CANCELED
  const error = (outcome.data.error as { message?: string } | null | undefined)?.message ?? null
  await updateCharge(charge.id, {
    state: paid ? "approved" : failed ? "declined" : "pending",
    gateway_order_id: (outcome.data.orderId as string | undefined) || charge.gateway_order_id || null,
    gateway_status: (outcome.data.gatewayStatus as string | undefined) ?? null,
    error_message: failed ? error : null,
  })
  return outcome
}

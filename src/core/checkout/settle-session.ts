/**
 * Bringing one PaynetEasy payment session to the state the gateway says it is in — never on a callback's word.
 *
 * The confirmation is a STATUS call made by the provider: `paymentModule.authorizePaymentSession` calls the provider's
 * `authorizePayment`, which asks the gateway STATUS for the session's order and maps it (status-map.ts). The payment
 * module then persists the answer, through its public API:
 * - authorized / captured → a Payment is created (a captured sale also gets its Capture, without a second gateway
 *   call); then the cart is completed as Medusa's `processPaymentWorkflow` completes it (completeCart below), so the
 *   order exists even when the shopper never comes back;
 * - error / canceled      → the session keeps that status and the provider's `data.error` (the gateway's reason);
 *   the module throws NOT_ALLOWED, which here is an answer, not a failure;
 * - pending / requires_more / pending_authorization → not final yet: reconciliation keeps asking.
 *
 * The authorize call runs under the cart's lock (same key as completeCartWorkflow / processPaymentWorkflow), because a
 * concurrent cart completion authorizing the same session would create a second Payment and make the module void the
 * transaction at the gateway. The cart is completed after the lock is released, as processPaymentWorkflow completes it
 * (action `authorized`, even for a captured sale: the Payment and its Capture already exist, and completeCartWorkflow
 * puts the capture on the new order itself; the integration spec checks paid_total and one order transaction).
 */
import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { completeCartWorkflowId } from "@medusajs/medusa/core-flows"
import { scrub } from "../../gateway/scrub"
import { paymentIdsText, type PaymentIds } from "../telemetry/payment-log"
import { paymentLinks, type PaymentLinks } from "../callbacks/processing-reads"
import { findSession, type SessionInfo } from "../callbacks/verify"
import { reflectRebillSettlement } from "../saved-cards/rebill-outcome"
import { collectionLockKey } from "../locks/collection-lock"
import { LOCK_KEYS } from "../locks/lock-keys"
import { bookCapturesOnOrder } from "./book-captures"
import { giveBackReason, type GiveBackReason } from "../payment-links/stale-amount"

export type SettleOutcome =
  /** the gateway approved; a Payment exists and, when the session belongs to a cart, the order exists */
  | "authorized"
  /** the gateway declined / filtered / failed it: the session is marked with the gateway's reason */
  | "failed"
  /** not final at the gateway yet */
  | "pending"
  /** there is no PaynetEasy session with that id (deleted after a cart change, or never ours) */
  | "no_session"

export type SettleResult = {
  outcome: SettleOutcome
  sessionStatus?: string
  paymentId?: string
  cartId?: string
  orderId?: string
  /** the gateway order the session's data names after the check (absent: the gateway knows no transaction yet) */
  gatewayOrderId?: string
  /** a STATUS reply was about another payment (core/checkout/reply-match.ts): a person must look */
  mismatch?: string
  /** paid, but given back instead of booked (its session deleted: the provider's release ran once) */
  givenBack?: GiveBackReason
  detail: string
}

const FINAL_FAILED = new Set(["error", "canceled"])
const LOCK_TIMEOUT_S = 30

type Authorized = { payment?: { id: string }; givenBack?: GiveBackReason }

type Links = PaymentLinks

/** The session's Payment, its cart and the cart's order: one statement (core/callbacks/processing-reads.ts). */
const links = (container: MedusaContainer, sessionId: string, paymentCollectionId: string): Promise<Links> =>
  paymentLinks(container, sessionId, paymentCollectionId)

/**
 * The cart completed into an order, as Medusa's processPaymentWorkflow (action authorized) completes it once the
 * session's Payment exists and the cart has no order: its completeCartAfterPaymentStep runs completeCartWorkflow through
 * the workflow engine, after it has released the cart's lock, and a failure does not fail the payment
 * (continueOnPermanentFailure). Called here directly, its four reads of what the caller already holds (the Payment, the
 * session, the cart link, the order link) and a read of the links afterwards are saved: completeCartWorkflow answers
 * with the order's id (bench "callback → Payment", SQL statements per callback). Undefined when the cart could not be
 * completed (a warning says why; the caller keeps the callback failed and the session watched).
 */
async function completeCart(container: MedusaContainer, cartId: string, ids: PaymentIds): Promise<string | undefined> {
  try {
    const { result } = await container.resolve(Modules.WORKFLOW_ENGINE).run(completeCartWorkflowId, { input: { id: cartId } })
    return (result as { id?: string } | undefined)?.id
  } catch (e) {
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    logger.warn(`PaynetEasy: cart ${cartId} is paid but could not be completed into an order: ${scrub(e instanceof Error ? e.message : String(e)).slice(0, 300)}${paymentIdsText(ids)}`)
    return undefined
  }
}

/**
 * A session of an order's own collection whose registered amount the collection no longer asks (the order was edited
 * after its page opened), or whose order or collection is canceled (core/payment-links/stale-amount.ts), is deleted
 * instead of authorized: Medusa's deleteSession runs the provider's release (after-authorization.ts releaseDeleted:
 * STATUS, then void or full return, once). The amount rule is for a page or card payment of ours only: a saved-card
 * charge is charged at its collection's amount when it is made. A renewal's recorded charge is never given back here.
 */
async function givenBack(container: MedusaContainer, session: SessionInfo, orderId: string | undefined): Promise<GiveBackReason | undefined> {
  const data = session.data as { amount?: unknown; currency?: unknown; cardRefId?: unknown; recurring_charge_id?: unknown } | undefined
  if (!data || data.recurring_charge_id || typeof data.currency !== "string") return undefined
  const paymentModule = container.resolve(Modules.PAYMENT)
  const [collection] = await paymentModule.listPaymentCollections({ id: session.payment_collection_id }, { select: ["id", "amount", "raw_amount", "status"] })
  const asked = collection as { raw_amount?: BigNumberInput; amount?: BigNumberInput; status?: string } | undefined
  const [order] = orderId ? await container.resolve(Modules.ORDER).listOrders({ id: orderId }, { select: ["id", "status"] }) : []
  const reason = giveBackReason({
    registered: data.amount, asked: asked?.raw_amount ?? asked?.amount, currency: data.currency, amountMatters: !data.cardRefId,
    orderStatus: order?.status, collectionStatus: asked?.status,
  })
  if (reason) await paymentModule.deletePaymentSession(session.id)
  return reason
}

const GIVEN_BACK: Record<GiveBackReason, string> = {
  "stale-amount": "paid at an amount the order's payment collection no longer asks (the order changed after the page opened): given back, the link stays payable",
  "order-canceled": "paid after its order (or payment collection) was canceled: given back, the order owes nothing",
}

/**
 * Confirms the session's outcome with the gateway (through the provider) and makes Medusa reflect it. Idempotent.
 * `known`: the session as the caller has just read it under the same lock (process-callback's plan), saving a read;
 * `knownLinks`: its Payment / cart / order, read in that same statement.
 */
export async function settleSession(container: MedusaContainer, sessionId: string, known?: SessionInfo, knownLinks?: Links): Promise<SettleResult> {
  const result = await settle(container, sessionId, known, knownLinks)
  if (!result.cartId && result.orderId) {
    // A session of an order's own payment collection (no cart: a payment link, an admin rebill): nothing completes a
    // cart, so the Payment's captures (a sale's) are booked on the order here, as Medusa's capturePaymentWorkflow
    // would, or the order would still show them owed. Idempotent, also after "already authorized".
    if (result.outcome === "authorized" && result.paymentId) await bookCapturesOnOrder(container, result.orderId, result.paymentId)
    // An admin rebill whose outcome was unknown when it was asked for: its row is brought up to date now.
    await reflectRebillSettlement(container, sessionId, result)
  }
  return result
}

async function settle(container: MedusaContainer, sessionId: string, known?: SessionInfo, knownLinks?: Links): Promise<SettleResult> {
  const session = known?.id === sessionId ? known : await findSession(container, sessionId)
  if (!session) {
    return { outcome: "no_session", detail: "no PaynetEasy payment session with this id" }
  }
  if (!session.data?.clientOrderId) {
    // A saved-card payment or a rebill is charged inside initiatePayment, so its callback can arrive while Medusa is
    // still creating the session, before it has stored the provider's data: nothing to confirm yet. The caller's watch
    // (or the gateway's redelivery) comes back to it.
    return { outcome: "pending", sessionStatus: session.status, detail: "the session's payment data is not stored yet (Medusa is still creating it)" }
  }
  let l = known?.id === sessionId && knownLinks ? knownLinks : await links(container, session.id, session.payment_collection_id)
  const done = (detail: string): SettleResult => ({
    outcome: "authorized",
    sessionStatus: "authorized",
    paymentId: l.paymentId,
    cartId: l.cartId,
    orderId: l.orderId,
    detail,
  })

  if (l.paymentId && (l.orderId || !l.cartId)) {
    return done("already authorized; nothing to do")
  }

  if (!l.paymentId) {
    const paymentModule = container.resolve(Modules.PAYMENT)
    const locking = container.resolve(Modules.LOCKING)
    const answer = await locking.execute(
      session.payment_collection_id ? collectionLockKey(l.cartId, session.payment_collection_id) : (l.cartId ?? session.id),
      async () => {
        const authorize = async (): Promise<Authorized> => {
          const reason = l.cartId ? undefined : await givenBack(container, session, l.orderId)
          if (reason) return { payment: undefined, givenBack: reason }
          try {
            const payment = await paymentModule.authorizePaymentSession(session.id, {})
            return { payment: payment ?? undefined }
          } catch (e) {
            if (MedusaError.isMedusaError(e) && (e as MedusaError).type === MedusaError.Types.NOT_ALLOWED) {
              return { payment: undefined }
            }
            throw e
          }
        }
        // An order's own collection (a link, a rebill): the check of the order and the authorization take the admin's
        // turn on the order (api/admin-money-serial.ts), so a cancel running now ends first and is seen by the check,
        // or starts after and finds the Payment to release. Without it, a cancel between the check and the
        // authorization left a live authorization on a canceled order (payment-links.spec, "while the admin cancels").
        if (l.cartId || !l.orderId) return authorize()
        return locking.execute(LOCK_KEYS.adminMoneyAction(l.orderId), authorize, { timeout: LOCK_TIMEOUT_S })
      },
      { timeout: LOCK_TIMEOUT_S }
    )
    if ("givenBack" in answer && answer.givenBack) {
      return { outcome: "no_session", cartId: l.cartId, orderId: l.orderId, givenBack: answer.givenBack, detail: GIVEN_BACK[answer.givenBack] }
    }
    if (!answer.payment) {
      const after = await findSession(container, session.id)
      const status = after?.status ?? session.status
      const error = (after?.data as { error?: { code?: string; message?: string } } | undefined)?.error
      if (FINAL_FAILED.has(status)) {
        const reason = error ? `${error.code ? `${error.code}: ` : ""}${error.message ?? ""}` : "no reason given"
        return { outcome: "failed", sessionStatus: status, cartId: l.cartId, orderId: l.orderId, detail: `gateway: ${reason}` }
      }
      const gatewayOrderId = (after?.data ?? session.data)?.orderId
      const mismatch = ((after?.data ?? session.data) as { replyMismatch?: { detail?: string } | null } | undefined)?.replyMismatch?.detail
      return {
        ...(mismatch ? { mismatch } : {}),
        outcome: "pending",
        sessionStatus: status,
        cartId: l.cartId,
        orderId: l.orderId,
        gatewayOrderId: typeof gatewayOrderId === "string" && gatewayOrderId !== "" ? gatewayOrderId : undefined,
        detail: `gateway outcome not final (session ${status})`,
      }
    }
    l = { ...l, paymentId: answer.payment.id }
  }

  if (l.cartId && !l.orderId) {
    const orderId = await completeCart(container, l.cartId, { paymentSessionId: sessionId, paymentId: l.paymentId })
    if (orderId) l = { ...l, orderId }
    if (!l.orderId) {
      return {
        outcome: "authorized",
        sessionStatus: "authorized",
        paymentId: l.paymentId,
        cartId: l.cartId,
        detail: "payment authorized but the cart could not be completed (see the workflow log); a person must look",
      }
    }
    return done("authorized and the cart completed into an order")
  }
  return done("authorized")
}

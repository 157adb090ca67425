/**
 * What happens to a recorded callback (run by the `payneteasy.callback.received` subscriber, after the route has
 * already answered 200).
 *
 * - The initial transaction (type sale / preauth): `settleSession` asks the gateway STATUS through the provider and
 *   makes Medusa reflect it (order created, or session failed with the gateway's reason). The callback's own status
 *   is only a trigger: a replayed "approved" for a declined transaction changes nothing.
 * - Anything later on the order (return, reversal, chargeback, capture/void made elsewhere): its type and amount are
 *   not covered by the control, so it is confirmed with STATUS first (confirm-later-event.ts). Confirmed: reflected
 *   with the gateway's values, never acted on with money (reflect-later-event.ts). Unconfirmable: logged as such
 *   (row `ignored`, a warning) and nothing else — no order data, no event.
 * - A genuine callback for an order Medusa does not know (its session was deleted after a cart change, while the
 *   shopper still paid on an open payment page): `approved` means the shopper may have been charged with no order
 *   to show for it, so the row is `flagged` and a warning names orderid / client_orderid — the provider's
 *   deletePayment only logs a paid sale, it never refunds one. Anything else is kept as `ignored`.
 * The row's outcome is written at the end; a row already `processed`, `ignored` or `flagged` is never processed
 * again, so a redelivered event is a no-op. A failure is written as `failed` and rethrown so an event bus with retries retries.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { scrub } from "../../gateway/scrub"
import { PAYNETEASY_MODULE } from "../../modules/payneteasy"
import type PaynetEasyModuleService from "../../modules/payneteasy/service"
import type { CallbackRow } from "../../modules/payneteasy/service"
import { confirmCallbackEvent } from "./confirm-later-event"
import { reflectLaterEvent } from "./reflect-later-event"
import { ensureWatched, markSettled } from "./watch"
import { settleSession } from "./settle-session"
import { findSession } from "./verify-message"

export const CALLBACK_RECEIVED = "payneteasy.callback.received"

/** Transaction types that carry the session's own outcome; everything else is a later event on the order. */
const INITIAL_TYPES = new Set(["sale", "preauth"])

export function isInitialType(type: string): boolean {
  return INITIAL_TYPES.has(type.trim().toLowerCase())
}

export async function processCallback(container: MedusaContainer, callbackId: string): Promise<CallbackRow> {
  const service = container.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)
  const first = (await service.retrievePaynetEasyCallback(callbackId)) as unknown as CallbackRow
  if (isDone(first)) {
    return first
  }
  // One callback of a session at a time (subscriber, redelivery and the reconciliation tick may meet here); the row
  // is read again under the lock, so the second comer sees the first one's outcome and does nothing.
  const locking = container.resolve(Modules.LOCKING)
  return locking.execute(`payneteasy:session:${first.session_id ?? first.orderid}`, () => processUnlocked(container, callbackId), {
    timeout: SESSION_LOCK_TIMEOUT_S,
  })
}

const SESSION_LOCK_TIMEOUT_S = 60

const isDone = (row: CallbackRow) => row.outcome === "processed" || row.outcome === "ignored" || row.outcome === "flagged"

async function processUnlocked(container: MedusaContainer, callbackId: string): Promise<CallbackRow> {
  const service = container.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)
  const row = (await service.retrievePaynetEasyCallback(callbackId)) as unknown as CallbackRow
  if (isDone(row)) {
    return row
  }
  const finish = async (outcome: CallbackRow["outcome"], detail: string) =>
    (await service.updatePaynetEasyCallbacks({
      id: row.id,
      outcome,
      outcome_detail: detail.slice(0, 1000),
      processed_at: new Date(),
    })) as unknown as CallbackRow

  try {
    if (row.source !== "callback") {
      return await finish("ignored", "a shopper return never counts as the outcome")
    }
    const session = row.session_id ? await findSession(container, row.session_id) : undefined
    if (!session) {
      const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
      if (row.status === "approved") {
        logger.warn(
          `PaynetEasy: APPROVED ${row.type} for a payment session Medusa no longer has (orderid ${row.orderid}, client_orderid ${row.client_orderid}, amount ${row.amount ?? "?"} ${row.currency ?? ""}): the shopper may have paid with no order; callback ${row.id} flagged — refund or void it in the gateway's back office, or make the order by hand`
        )
        return await finish(
          "flagged",
          `approved ${row.type} for a payment session that no longer exists (deleted after a cart change?): the shopper may have been charged with no order; a person must refund/void it at the gateway or create the order`
        )
      }
      logger.warn(
        `PaynetEasy: genuine callback ${row.id} (orderid ${row.orderid}, client_orderid ${row.client_orderid}, ${row.type} ${row.status}) for an order Medusa does not know; check it in the gateway's back office`
      )
      return await finish("ignored", "genuine callback for an order with no Medusa payment session (deleted or not ours): a person must check it")
    }
    if (!isInitialType(row.type)) {
      const confirmation = await confirmCallbackEvent(container, row, session.payment_collection_id)
      if (!confirmation.confirmed) {
        container
          .resolve(ContainerRegistrationKeys.LOGGER)
          .warn(`PaynetEasy: callback ${row.id} (${row.type} ${row.status} on order ${row.orderid}) is not confirmed by the gateway and was not recorded on any order: ${confirmation.reason}`)
        return await finish("ignored", `not confirmed by STATUS: ${confirmation.reason}`)
      }
      const e = confirmation.event
      const detail = await reflectLaterEvent(
        container,
        {
          logId: row.id, source: "callback", sessionId: row.session_id, orderid: row.orderid, type: e.type, status: e.status, amount: e.amount,
          currency: e.currency, serial: e.serial, reason: e.errorMessage ?? e.errorCode ?? null, receivedAt: row.received_at,
        },
        session.payment_collection_id
      )
      return await finish("processed", detail)
    }
    const result = await settleSession(container, session.id)
    const paidNoOrder = result.outcome === "authorized" && !!result.cartId && !result.orderId
    if (result.outcome === "pending" || paidNoOrder) {
      // Paid but no order is not final either: the reconciliation tick keeps trying the cart (and flags it after
      // the hour) besides re-running this row.
      await ensureWatched(container, session.id, session.provider_id)
    } else {
      await markSettled(container, session.id, result.sessionStatus ?? result.outcome)
    }
    if (paidNoOrder) {
      // Paid but no order: keep the row visibly failed so a redelivery or the reconciliation tick tries again.
      return await finish("failed", `${result.outcome}: ${result.detail}`)
    }
    const confirmed =
      result.outcome === "pending" && row.status !== "processing"
        ? ` (callback said ${row.status}; STATUS not final yet, reconciliation continues)`
        : ""
    return await finish("processed", `${result.outcome}: ${result.detail}${confirmed}`)
  } catch (e) {
    const message = MedusaError.isMedusaError(e) || e instanceof Error ? (e as Error).message : String(e)
    await finish("failed", `processing failed: ${scrub(message)}`)
    throw e
  }
}

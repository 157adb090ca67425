/**
 * A payment for a payment session Medusa has deleted: given back, once.
 *
 * Why: Medusa deletes a session when a new one is made on the same payment collection (the cart changed, a second
 * click, a second tab), and the provider's deletePayment can release only what the gateway already holds. A shopper
 * who then pays on the old hosted page (or whose card request was in flight) is charged for a session no order can
 * ever be made from: nothing in Medusa would capture, show or refund it. When the callback proves the order is this
 * store's own (its tag, core/checkout/callback-owner.ts), the money goes back to the card: a void, or a full return
 * when the gateway refuses the void (a settled sale), as the provider's cancel does (after-authorization.ts).
 *
 * Once: it runs under the session's lock (process-callback.ts) and STATUS decides before anything is sent, on the
 * same client_orderid and gateway order (never a new id): an order whose latest transaction is an approved void or
 * reversal has been given back already (a second callback, a redelivery, a retry after a lost reply); one still
 * processing is not sent again but left for the next try. A give-back whose reply was lost is settled by STATUS in
 * follow-up.ts (core/connection/money-request.ts); one STATUS does not show yet is marked on the row
 * (`params.give_back_sent`: when, and the order's serial before it) and fails the row, which the reconciliation tick
 * retries — STATUS first again, and never a second give-back while the mark is there: a gateway still processing the
 * first one shows the order's old state. Past the processing window without the give-back showing, the row is
 * flagged for a person. A callback without a valid tag (an order this
 * plugin did not register, or one registered before the tag existed) is left to a person, as before, and so is one
 * whose session Medusa had authorized before deleting it (a Payment holds the money, perhaps an order).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { isApproved, isFinal, isInitialTransactionType } from "../../gateway/statuses"
import { statusFields } from "../../gateway/requests"
import { transactionTypeOf } from "../../gateway/replies"
import type { CallbackRow } from "../../modules/payneteasy/service"
import { paymentOfSession } from "./processing-reads"
import { paymentLogger } from "../telemetry/payment-log"
import { clientForOptions, DEFAULT_PROCESSING_WINDOW_MS, parseOptions, pastProcessingWindow, providerOptionsFor, type PaynetEasyOptions } from "../connection"
import { serialNumberOf } from "../../gateway/replies"
import { paynetEasyModule } from "../../modules/payneteasy"
import { giveBackInFull } from "../checkout/after-authorization"
import { carriesOwnerTag } from "../checkout/callback-owner"
import { sessionIdFromClientOrderId } from "../checkout/client-order-id"
import type { ProviderContext } from "../checkout/context"
import { gatewayValue } from "../checkout/gateway-call"
import { idMismatch } from "../checkout/reply-match"
import type { SessionData } from "../checkout/session-data"
import { transactionTypeKey } from "../checkout/status-map"

type Result = { outcome: CallbackRow["outcome"]; detail: string }

/** The mark of a give-back sent whose reply was lost and that STATUS did not show yet (see the header). */
function giveBackSent(row: Pick<CallbackRow, "params">): { at: string } | undefined {
  const mark = (row.params as Record<string, unknown> | null)?.give_back_sent as { at?: unknown } | undefined
  return mark && typeof mark.at === "string" ? { at: mark.at } : undefined
}

/** Transaction types that give an order's money back: the echo of our own give-back, never a new payment. */
const GIVE_BACK_TYPES = new Set(["void", "reversal"]) // a RETURN is reported as a reversal

function optionsOf(container: MedusaContainer, providerId: string | null | undefined): PaynetEasyOptions | undefined {
  const raw = providerId ? providerOptionsFor(container.resolve("configModule"), providerId) : undefined
  try {
    return raw ? parseOptions(raw) : undefined
  } catch {
    return undefined // invalid options: that registration vouches for nothing
  }
}

/** Whether the row's callback carries the tag of its client_orderid under the key of the registration that verified it. */
export function isOwnOrder(container: MedusaContainer, row: Pick<CallbackRow, "provider_id" | "client_orderid" | "params">): boolean {
  const options = optionsOf(container, row.provider_id)
  return !!options && carriesOwnerTag(options.controlKey, row.client_orderid, row.params as Record<string, unknown> | null)
}

/** A later transaction (void, reversal) on an order of ours whose session is gone: the gateway's notice of a give-back. */
export function isGiveBackNotice(row: Pick<CallbackRow, "type">): boolean {
  return GIVE_BACK_TYPES.has(row.type.trim().toLowerCase())
}

/**
 * Gives back the approved payment of an order of ours whose session Medusa deleted (see the header). `row`: its
 * approved initial callback, already known to carry our tag (isOwnOrder). Throws when the gateway cannot tell yet
 * (the row is then `failed`, and retried).
 */
export async function giveBackOrphanedPayment(container: MedusaContainer, row: CallbackRow): Promise<Result> {
  const sessionId = row.session_id ?? sessionIdFromClientOrderId(row.client_orderid) ?? row.client_orderid
  // Medusa authorized the session before it went (a Payment holds this money, maybe an order): never behind its back.
  const recorded = await paymentOfSession(container, sessionId)
  if (recorded) {
    return { outcome: "flagged", detail: `Medusa recorded payment ${recorded} for this deleted payment session, so it was not given back: a person must decide between the order and a refund` }
  }
  const options = optionsOf(container, row.provider_id)
  if (!options) return { outcome: "flagged", detail: `the registration ${row.provider_id} that verified it has no usable options: a person must void or refund it at the gateway` }
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const client = clientForOptions(options)
  try {
    const ctx: ProviderContext = { client, options, logger }
    const ids = { clientOrderId: row.client_orderid, orderId: row.orderid }
    const reply = await gatewayValue("STATUS", () => client.request("STATUS", statusFields(ids)))
    const mismatch = idMismatch(reply, ids)
    if (mismatch) {
      return { outcome: "flagged", detail: `its STATUS answered about another payment (${mismatch}): a person must check order ${row.orderid} at the gateway` }
    }
    const type = transactionTypeKey(transactionTypeOf(reply))
    const what = `${row.type} ${row.amount ?? "?"} ${row.currency ?? ""}`.trim()
    if (type === "void" || type === "reversal") {
      if (isApproved(reply)) return { outcome: "processed", detail: `given back already (${type} approved at the gateway) for a payment session Medusa had deleted: ${what}` }
      if (!isFinal(reply)) throw new Error(`the give-back of order ${row.orderid} is still ${reply.status} at the gateway; STATUS decides on the next try`)
      return { outcome: "flagged", detail: `the gateway ${reply.status} the give-back (${type}) of order ${row.orderid}: a person must void or refund it at the gateway` }
    }
    if (!isInitialTransactionType(type)) {
      return { outcome: "flagged", detail: `order ${row.orderid} of a deleted payment session shows a ${type} ${reply.status}: a person must check it at the gateway` }
    }
    if (!isFinal(reply)) throw new Error(`order ${row.orderid} is still ${reply.status} at the gateway; STATUS decides on the next try`)
    if (!isApproved(reply)) return { outcome: "ignored", detail: `the ${type} was ${reply.status} at the gateway: nothing was taken from the shopper` }
    const sent = giveBackSent(row)
    if (sent) {
      // sent before, its reply lost, and STATUS still shows the payment: the gateway may still be processing it
      const windowMs = options.processingWindowMs ?? DEFAULT_PROCESSING_WINDOW_MS
      if (pastProcessingWindow(sent.at, new Date(), windowMs)) {
        return { outcome: "flagged", detail: `the give-back of order ${row.orderid} was sent at ${sent.at}, its reply was lost, and the gateway has not shown it within the processing window (${Math.round(windowMs / 60_000)} min); nothing was sent again: a person must check the order at the gateway` }
      }
      throw new Error(`the give-back of order ${row.orderid} was sent at ${sent.at} and the gateway does not show it yet; STATUS decides on the next try (nothing is sent again)`)
    }
    const data = {
      session_id: sessionId,
      clientOrderId: row.client_orderid,
      orderId: row.orderid,
      transactionType: type,
      currency: (row.currency ?? "").toUpperCase(),
    } as SessionData
    const after = (await giveBackInFull(ctx, data, `Session ${data.session_id} deleted`)) as SessionData
    const entry = after.voidEntry ?? after.refunds?.[after.refunds.length - 1]
    const how = after.voidEntry ? "voided" : "returned in full"
    if (entry?.pending) {
      if (!entry.serialNumber) {
        // not shown by STATUS yet: remember that it was sent, so no retry sends it again
        const mark = { at: typeof entry.sentAt === "string" ? entry.sentAt : new Date().toISOString(), afterSerial: typeof entry.afterSerial === "string" ? entry.afterSerial : serialNumberOf(reply) ?? null }
        await paynetEasyModule(container).updatePaynetEasyCallbacks({ id: row.id, params: { ...((row.params as Record<string, unknown> | null) ?? {}), give_back_sent: mark } })
      }
      throw new Error(`the give-back of order ${row.orderid} was sent and is still ${entry.status}; STATUS decides on the next try`)
    }
    paymentLogger(logger, { paymentSessionId: row.session_id, gatewayOrderId: row.orderid, clientOrderId: row.client_orderid }).warn(
      `PaynetEasy: APPROVED ${row.type} for a payment session Medusa had deleted (orderid ${row.orderid}, client_orderid ${row.client_orderid}, ${row.amount ?? "?"} ${row.currency ?? ""}): no order can be made from it, so it was ${how} at the gateway`
    )
    return { outcome: "processed", detail: `given back (${how}) because Medusa had deleted its payment session: ${what}` }
  } finally {
    await client.close().catch(() => undefined)
  }
}

/**
 * THE way a money request goes to the gateway: sent once, and settled without ever being sent again.
 *
 * Why one helper: "maybe sent stays maybe until the gateway says otherwise" (issue 49). A gateway that has a request
 * keeps processing it whether or not its client waits, and its STATUS shows the new transaction only when that is
 * over; so after a reply that may have been sent (reach.ts `maybe-sent`: a timeout, a reset after sending, an
 * unreadable reply, a 5xx), a STATUS that does not show the request YET proves nothing. Only a STATUS that shows it
 * settles it. Until then the action is pending: the caller records it so (a ledger entry, a charge row, a payout
 * row), says so (202 / "confirming"), and reconciliation asks STATUS again on its backoff over the gateway's
 * processing window (`processingWindowMs`, DEFAULT_PROCESSING_WINDOW_MS), after which it is an attention item.
 * Nothing is sent a second time, under the same client order id or a new one, unless the first request certainly
 * never left (reach.ts `neverLeft`: refused connection, DNS failure, refused by the client before writing); then the
 * error is the caller's, who may send it again — it made nothing.
 *
 * sendMoneyRequest returns:
 * - `reply`: the gateway answered (its reply, whatever status it carries);
 * - `shown`: the reply was lost, and a STATUS shows the request (`shows` decides; by default any order the gateway
 *   has for the query's client order id);
 * - `pending`: the reply was lost and no STATUS (asked on `askAgainMs`, a short in-request backoff) shows it: it may
 *   still be processing; `reason` says what STATUS said, for the record.
 * and throws the gateway's own error when the request was answered with a refusal or certainly never left.
 */
import type { OperationName, OperationResponse, PaynetEasyClient } from "../../gateway"
import { GatewayError } from "../../gateway"
import { setTimeout as sleep } from "node:timers/promises"
import { isNotFound, statusFields, type Fields, type StatusQuery, type StatusReply } from "./gateway-ops"
import { reachOf } from "./reach"
import { settleSpan } from "./gateway-telemetry"

/** How long a gateway may go on processing a request before "STATUS does not show it" means a person must look. */
export const DEFAULT_PROCESSING_WINDOW_MS = 5 * 60_000

/** The STATUS asks within the request after a lost reply (then reconciliation asks on its own backoff). */
export const DEFAULT_ASK_AGAIN_MS: readonly number[] = [0, 250, 750]

export type MoneySent<N extends OperationName> =
  | { kind: "reply"; reply: OperationResponse<N> }
  | { kind: "shown"; status: StatusReply }
  | { kind: "pending"; reason: string }

export interface MoneyRequest<N extends OperationName> {
  op: N
  fields: Fields
  /** How STATUS finds this request (its client order id, and the gateway order id for a follow-up). */
  status: StatusQuery
  /**
   * Whether a STATUS reply shows THIS request. Default: the gateway has an order for the client order id (a request
   * that starts an order: sale, preauth, rebill, payout, recurring set-up). A follow-up (capture, return, void) on an
   * existing order passes its own test: a new transaction of its kind after the snapshot taken before sending.
   */
  shows?: (status: StatusReply) => boolean
  askAgainMs?: readonly number[]
}

export async function sendMoneyRequest<N extends OperationName>(client: PaynetEasyClient, req: MoneyRequest<N>): Promise<MoneySent<N>> {
  try {
    return { kind: "reply", reply: await client.request(req.op, req.fields) }
  } catch (e) {
    if (reachOf(e) !== "maybe-sent") throw e // refused by the gateway, or it certainly never left: nothing was made
    return settleByStatus(client, req, e)
  }
}

/**
 * A request that may have been sent, settled by STATUS alone: `shown`, or `pending` when no STATUS shows it (not found,
 * not yet of its kind, or STATUS failing). Also what a later look (a retry of the same intent) uses instead of sending.
 */
export async function settleByStatus<N extends OperationName>(
  client: PaynetEasyClient,
  req: Pick<MoneyRequest<N>, "op" | "status" | "shows" | "askAgainMs">,
  lost?: unknown,
): Promise<Extract<MoneySent<N>, { kind: "shown" | "pending" }>> {
  const shows = req.shows ?? (() => true)
  const facts = { operation: req.op, clientOrderId: req.status.clientOrderId, orderId: req.status.orderId }
  return settleSpan("lost reply", facts, async (span) => {
    let said = lost instanceof GatewayError ? `its reply was lost (${lost.message})` : "its reply was lost"
    for (const delay of req.askAgainMs ?? DEFAULT_ASK_AGAIN_MS) {
      if (delay > 0) await sleep(delay)
      try {
        const status = await client.request("STATUS", statusFields(req.status))
        if (shows(status)) {
          span.setAttribute("payneteasy.settle.outcome", "shown")
          return { kind: "shown" as const, status }
        }
        said = `${req.op}: STATUS does not show it yet (latest ${status.status ?? "?"})`
      } catch (e) {
        said = isNotFound(e)
          ? `${req.op}: STATUS does not know it yet (${e instanceof GatewayError ? e.message : "not found"})`
          : `${req.op}: STATUS could not be read (${e instanceof GatewayError ? e.message : "an unexpected failure"})`
      }
    }
    span.setAttribute("payneteasy.settle.outcome", "pending")
    return { kind: "pending" as const, reason: said }
  })
}

/** Whether a request made `sentAt` is past the gateway's processing window at `now` (then a person must look). */
export const pastProcessingWindow = (sentAt: Date | string, now: Date, windowMs = DEFAULT_PROCESSING_WINDOW_MS): boolean =>
  now.getTime() - new Date(sentAt).getTime() >= windowMs

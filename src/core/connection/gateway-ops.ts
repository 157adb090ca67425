/**
 * The two gateway conversations the provider needs, with the reliability rules in one place:
 *
 * - `sendOnce`: a money-moving request is sent exactly once. If its response is lost
 *   (GatewayTransportError.indeterminate), we do NOT re-send: we ask STATUS for the same client_orderid
 *   (and orderid when known) and let the caller adopt what the gateway already has (ARCHITECTURE "Reliability").
 *   An unreadable reply (GatewayProtocolError: a 200 we could not parse) or a 5xx is just as indeterminate: the gateway
 *   may have processed the request, so it is STATUS first, never a failure (reach.ts `maybeSent`, the one rule for
 *   "did it reach the gateway?"). When that STATUS fails
 *   too (a 5xx, a refused signature, another lost reply), the outcome is still unknown: sendOnce throws
 *   `UnresolvedLostReply`, itself indeterminate, rather than the STATUS error, which would read as a failure of the
 *   request (the direct card step then keeps the attempt pending for reconciliation instead of answering 500).
 * - `pollStatus`: STATUS until a reply is decisive (final, or the payer has a next action) or the short budget runs
 *   out; the last reply is returned either way and the status table decides what it means (non-final → pending).
 */
import {
  GatewayAuthError,
  GatewayError,
  GatewayTransportError,
  type OperationName,
  type OperationResponse,
  type PaynetEasyClient,
} from "../../gateway"
import { isFinal } from "../../gateway/statuses"
import { redirectToOf } from "../../gateway/replies"
import { statusFields as statusRequest } from "../../gateway/requests"
import { setTimeout as sleep } from "node:timers/promises"
import { maybeSent, reachOf } from "./reach"

export { isFinal }

export type StatusReply = OperationResponse<"STATUS">
export type Fields = Record<string, string | number | undefined>


/** ~9 s in total: the vendor polls every 3–5 s for minutes; a checkout request cannot wait that long. */
export const DEFAULT_POLL_DELAYS_MS = [0, 100, 200, 300, 400, 500, 750, 1000, 1250, 1500, 1500, 1500]

export const hasNextAction = (r: StatusReply) => !!(r.html?.trim() || redirectToOf(r)?.trim())
export const isDecisive = (r: StatusReply) => isFinal(r) || hasNextAction(r)

export interface StatusQuery {
  clientOrderId: string
  orderId?: string
  serialNumber?: string
}

/** STATUS's request fields (the gateway's builder, src/gateway/requests.ts). */
export const statusFields = (q: StatusQuery): Fields => statusRequest(q)

export async function pollStatus(
  client: PaynetEasyClient,
  q: StatusQuery,
  done: (r: StatusReply) => boolean = isDecisive,
  delays: readonly number[] = DEFAULT_POLL_DELAYS_MS
): Promise<StatusReply> {
  let last: StatusReply | undefined
  for (const delay of delays) {
    if (delay > 0) await sleep(delay)
    last = await client.request("STATUS", statusFields(q))
    if (done(last)) return last
  }
  return last!
}

export type SendResult<N extends OperationName> =
  | { kind: "reply"; reply: OperationResponse<N> }
  /** The response was lost; STATUS shows what the gateway has for this client_orderid. */
  | { kind: "adopted"; status: StatusReply }
  /** The response was lost and STATUS does not know the client_orderid: the request never arrived. */
  | { kind: "absent" }

/** Whether a STATUS failure means "no such transaction" (the gateway answers unknown ids with an error reply). */
export const isNotFound = (e: unknown) => reachOf(e) === "answered" && !(e instanceof GatewayAuthError)

/**
 * A request whose reply was lost (or unreadable) and whose STATUS failed as well: the gateway may or may not have
 * processed it. A GatewayTransportError with `indeterminate: true`, like the lost reply itself, so every caller's
 * "may have been processed" branch takes it (never a refusal, never re-sent blindly); the STATUS failure is named in
 * the message (already scrubbed, being a GatewayError's) and kept as the cause.
 */
export class UnresolvedLostReply extends GatewayTransportError {
  constructor(op: string, statusError: unknown) {
    const why = statusError instanceof GatewayError ? statusError.message : "an unexpected failure"
    super(`${op}: the reply was lost and STATUS could not tell whether the gateway processed it (${why})`, {
      operation: op,
      indeterminate: true,
      cause: statusError,
    })
  }
}

export async function sendOnce<N extends OperationName>(
  client: PaynetEasyClient,
  op: N,
  fields: Fields,
  q: StatusQuery
): Promise<SendResult<N>> {
  try {
    return { kind: "reply", reply: await client.request(op, fields) }
  } catch (e) {
    if (!maybeSent(e)) throw e
  }
  try {
    return { kind: "adopted", status: await client.request("STATUS", statusFields(q)) }
  } catch (e) {
    if (isNotFound(e)) return { kind: "absent" }
    throw new UnresolvedLostReply(op, e)
  }
}

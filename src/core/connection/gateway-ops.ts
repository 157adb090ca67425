/**
 * The two gateway conversations the provider needs, with the reliability rules in one place:
 *
 * - sending a money request is money-request.ts `sendMoneyRequest` (sent once; a maybe-sent reply settled only by a
 *   STATUS that shows it, else pending). `UnresolvedLostReply` stays for errors that must read as "outcome unknown".
 * - `pollStatus`: STATUS until a reply is decisive (final, or the payer has a next action) or the short budget runs
 *   out; the last reply is returned either way and the status table decides what it means (non-final → pending).
 */
import {
  GatewayAuthError,
  GatewayError,
  GatewayTransportError,
  type OperationResponse,
  type PaynetEasyClient,
} from "../../gateway"
import { isFinal } from "../../gateway/statuses"
import { redirectToOf } from "../../gateway/replies"
import { statusFields as statusRequest } from "../../gateway/requests"
import { setTimeout as sleep } from "node:timers/promises"
import { reachOf } from "./reach"
import { settleSpan } from "./gateway-telemetry"

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
  return settleSpan("poll", { clientOrderId: q.clientOrderId, orderId: q.orderId }, async () => {
    let last: StatusReply | undefined
    for (const delay of delays) {
      if (delay > 0) await sleep(delay)
      last = await client.request("STATUS", statusFields(q))
      if (done(last)) return last
    }
    return last!
  })
}

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

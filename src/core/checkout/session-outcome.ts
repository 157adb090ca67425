/**
 * Session data and status for a STATUS reply, through the one status table (status-map.ts): the gateway status,
 * the order id, the payer's next action (3-D Secure) or the gateway's reason for an error — only for a reply that is
 * about this session's payment (core/checkout/reply-match.ts); any other is a mismatch, never an authorization.
 */
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import type { StatusReply } from "../connection"
import type { SessionData } from "./session-data"
import { toSessionStatus } from "./status-map"
import { replyMismatch } from "./reply-match"
import { errorCodeOf, errorMessageOf, orderIdOf, redirectToOf, transactionTypeOf } from "../../gateway/replies"

type Data = Record<string, unknown>

/** The data without the previous outcome. Written as null, not dropped: Medusa merges JSON data on update. */
export function stripOutcome<T extends Record<string, unknown>>(data: SessionData, set?: T): SessionData & T {
  // `set` goes into the same copy (fromStatus runs on every STATUS: one copy of the data, not two). The literal opens
  // with the reset keys, not with the spread, on purpose: once optimized, Node 20's V8 gives every object made by
  // `{ ...data, k: v }` a hidden class of its own (%HaveSameMap is false between two calls), so each call builds new
  // maps: 3–4 µs here, about 5 % of bench "provider authorize". A literal that starts with a key shares one map.
  // OUTCOME_RESET after the spread is what clears the previous outcome.
  return { nextAction: null, error: null, ...data, ...OUTCOME_RESET, ...set } as SessionData & T
}

/** Typed as SessionData's optional keys, so the literal above may open with them too. */
const OUTCOME_RESET: Pick<SessionData, "nextAction" | "error"> = { nextAction: null, error: null }

export function fromStatus(data: SessionData, reply: StatusReply): { data: Data; status: PaymentSessionStatus } {
  const mismatch = replyMismatch(reply, data)
  if (mismatch) {
    // Not about this payment (reply-match.ts): nothing of it is taken; the session stays pending and its data names
    // the mismatch, which reconciliation flags for a person at once (settle-session.ts).
    return { data: { ...data, replyMismatch: { detail: mismatch, at: new Date().toISOString() } }, status: PaymentSessionStatus.PENDING }
  }
  const redirectTo = redirectToOf(reply)?.trim()
  const html = reply.html?.trim()
  const status = toSessionStatus({
    status: reply.status,
    transactionType: transactionTypeOf(reply) ?? data.transactionType,
    html,
    redirectTo,
  })
  const next: Data = stripOutcome(data, { gatewayStatus: reply.status })
  const orderId = orderIdOf(reply)
  if (orderId) next.orderId = orderId
  if (status === PaymentSessionStatus.REQUIRES_MORE) {
    next.nextAction = redirectTo ? { type: "redirect", url: redirectTo } : { type: "html", html }
  }
  if (status === PaymentSessionStatus.ERROR) {
    next.error = {
      code: errorCodeOf(reply),
      message: errorMessageOf(reply)?.trim() || `The payment was ${reply.status} by the gateway`,
    }
  }
  return { data: next, status }
}

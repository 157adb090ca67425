/**
 * What one reconciliation check of a payment session concludes, and which sessions are worth watching at all: the
 * decisions of the reconciliation tick (workflows/payneteasy/reconcile.ts), as pure functions (issue 54: they lived in
 * the workflow file). The steps in the header of that file are referred to here by number.
 */
import type { ReconciliationRow } from "../../modules/payneteasy/service"
import type { SettleResult } from "../checkout/settle-session"
import { REPLY_MISMATCH_NOTE } from "../checkout/reply-match"
import { nextCheckAt } from "./backoff"
import { watchUpdate, type WatchUpdate } from "./watch"

/** A session worth asking the gateway about (see step 2 in the header). */
export function isDiscoverable(data: Record<string, unknown> | undefined): boolean {
  if (typeof data?.orderId === "string" && data.orderId !== "") return true
  const hasClientOrderId = typeof data?.clientOrderId === "string" && data.clientOrderId !== ""
  return hasClientOrderId && (data?.flow === "direct" || data?.gatewayStatus === "unknown")
}

const PAID_NO_ORDER_NOTE =
  "the gateway approved the payment but the cart could not be completed into an order for an hour: a person must complete the cart or refund the payment"

export type CheckVerdict = "settled" | "pending" | "flagged"

/** Pure: what one check of a session watch concludes from settleSession's answer (see steps 4 and 2 in the header). */
export function sessionCheck(
  row: Pick<ReconciliationRow, "id" | "checks" | "started_at" | "session_id">,
  result: SettleResult,
  checkedAt: Date
): { update: WatchUpdate; verdict: CheckVerdict; warning?: string } {
  const paidNoOrder = result.outcome === "authorized" && !!result.cartId && !result.orderId
  if (result.outcome === "pending" && result.mismatch) {
    // Never an authorization, and no amount of polling makes another payment's reply this one's: a person now.
    return {
      verdict: "flagged",
      update: watchUpdate(row, checkedAt, { state: "flagged", lastStatus: result.sessionStatus ?? null, note: `${REPLY_MISMATCH_NOTE}: ${result.mismatch}` }),
      warning: `PaynetEasy: payment session ${row.session_id}: ${REPLY_MISMATCH_NOTE} (${result.mismatch}); flagged for a person`,
    }
  }
  if (result.outcome !== "pending" && !paidNoOrder) {
    return {
      verdict: "settled",
      update: watchUpdate(row, checkedAt, { state: "final", lastStatus: result.sessionStatus ?? result.outcome, note: result.detail }),
    }
  }
  const next = nextCheckAt(new Date(row.started_at), checkedAt)
  if (!next && result.outcome === "pending" && !result.gatewayOrderId) {
    // Direct flow, STATUS by client_orderid still says "not found" after the hour: no card request ever reached
    // the gateway, so nothing was paid; stop watching without bothering a person.
    return {
      verdict: "settled",
      update: watchUpdate(row, checkedAt, {
        state: "final",
        lastStatus: result.sessionStatus ?? null,
        note: "the gateway knows no transaction for this session's client_orderid after an hour; nothing was paid",
      }),
    }
  }
  if (!next) {
    return {
      verdict: "flagged",
      update: watchUpdate(row, checkedAt, {
        state: "flagged",
        lastStatus: result.sessionStatus ?? null,
        note: paidNoOrder ? PAID_NO_ORDER_NOTE : "no final status from the gateway after an hour: stop polling and ask the PaynetEasy account manager",
      }),
      warning: paidNoOrder
        ? `PaynetEasy: payment session ${row.session_id} is paid but its cart ${result.cartId} could not be completed for an hour; flagged for a person`
        : `PaynetEasy: payment session ${row.session_id} has no final gateway status after an hour; flagged for a person`,
    }
  }
  return {
    verdict: "pending",
    update: watchUpdate(row, checkedAt, { state: "pending", lastStatus: result.sessionStatus ?? null, note: paidNoOrder ? result.detail : null }, next),
  }
}


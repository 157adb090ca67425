/**
 * Session data and status for a STATUS reply, through the one status table (status-map.ts): the gateway status,
 * the order id, the payer's next action (3-D Secure) or the gateway's reason for an error.
 */
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import type { StatusReply } from "../../gateway-adapter"
import type { SessionData } from "../../payment-data/session-data"
import { toSessionStatus } from "./status-map"

type Data = Record<string, unknown>

/** The data without the previous outcome. Written as null, not dropped: Medusa merges JSON data on update. */
export function stripOutcome<T extends Record<string, unknown>>(data: SessionData, set?: T): SessionData & T {
  // `set` goes into the same copy (fromStatus runs on every STATUS: one copy of the data, not two)
  return { ...data, nextAction: null, error: null, ...set } as SessionData & T
}

export function fromStatus(data: SessionData, reply: StatusReply): { data: Data; status: PaymentSessionStatus } {
  const redirectTo = reply["redirect-to"]?.trim()
  const html = reply.html?.trim()
  const status = toSessionStatus({
    status: reply.status,
    transactionType: reply["transaction-type"] ?? data.transactionType,
    html,
    redirectTo,
  })
  const next: Data = stripOutcome(data, { gatewayStatus: reply.status })
  if (reply["paynet-order-id"]) next.orderId = reply["paynet-order-id"]
  if (status === PaymentSessionStatus.REQUIRES_MORE) {
    next.nextAction = redirectTo ? { type: "redirect", url: redirectTo } : { type: "html", html }
  }
  if (status === PaymentSessionStatus.ERROR) {
    next.error = {
      code: reply["error-code"],
      message: reply["error-message"]?.trim() || `The payment was ${reply.status} by the gateway`,
    }
  }
  return { data: next, status }
}

/**
 * The provider's answer to a callback (getWebhookActionAndData), pure: verify the control (sha1 of status + orderid +
 * client_orderid + control key) and map the initial transaction. Forged, foreign or non-initial (capture / return /
 * chargeback) callbacks → not_supported, so core does nothing.
 *
 * The control covers neither `amount` nor `type`, so neither may decide money:
 * - an approved sale maps to `authorized` like a preauth, never `captured`: Medusa's `captured` branch
 *   (processPaymentWorkflow) would run capturePaymentWorkflow with `data.amount`. Through `authorized`, Medusa
 *   authorizes the session via authorizePayment, which asks STATUS and reports a sale as captured, so the
 *   Capture is recorded with Medusa's own amount;
 * - `data.amount` is always "0" and never the callback's: processPaymentWorkflow (core-flows 2.21.2) reads
 *   data.amount only in its `captured` branches, which this provider never returns; the type requires the field.
 */
import type { WebhookActionResult } from "@medusajs/framework/types"
import { PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import { verifyCallback } from "../../gateway"
import { isInitialTransactionType } from "../../gateway/statuses"
import { sessionIdFromClientOrderId } from "./client-order-id"
import { toSessionStatus, transactionTypeKey } from "./status-map"

/** The webhook result's amount: never the callback's (uncovered by control); unused for the actions we return. */
export const WEBHOOK_AMOUNT = "0"

/**
 * What a verified initial callback tells Medusa, for every session status the status table can produce (typed over
 * all of Medusa's PaymentSessionStatus values, so a new one fails to compile here). `captured` maps to AUTHORIZED:
 * STATUS, not the callback, says "captured" (see the header).
 */
export const WEBHOOK_ACTIONS: { readonly [S in PaymentSessionStatus]: PaymentActions } = {
  [PaymentSessionStatus.AUTHORIZED]: PaymentActions.AUTHORIZED,
  [PaymentSessionStatus.CAPTURED]: PaymentActions.AUTHORIZED,
  [PaymentSessionStatus.ERROR]: PaymentActions.FAILED,
  [PaymentSessionStatus.REQUIRES_MORE]: PaymentActions.REQUIRES_MORE,
  [PaymentSessionStatus.CANCELED]: PaymentActions.CANCELED,
  [PaymentSessionStatus.PENDING]: PaymentActions.PENDING,
  [PaymentSessionStatus.PENDING_AUTHORIZATION]: PaymentActions.PENDING_AUTHORIZATION,
}

/** The callback's fields as one flat string map (query values may be arrays or numbers). */
export function toParams(data: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (data && typeof data === "object") {
    for (const [k, v] of Object.entries(data as Record<string, unknown>)) {
      if (typeof v === "string") out[k] = v
      else if (Array.isArray(v) && typeof v[0] === "string") out[k] = v[0]
      else if (typeof v === "number") out[k] = String(v)
    }
  }
  return out
}

export function webhookAction(data: unknown, controlKey: string): WebhookActionResult {
  const params = toParams(data)
  if (!verifyCallback(params, controlKey)) {
    return { action: PaymentActions.NOT_SUPPORTED }
  }
  return verifiedWebhookAction(params)
}

/**
 * The mapping alone, for a message whose control the caller has already verified with this provider's key (the
 * callback route does, in memory: core/callbacks/verify.ts).
 */
export function verifiedWebhookAction(params: Record<string, string>): WebhookActionResult {
  const sessionId = sessionIdFromClientOrderId(params.client_orderid ?? params.merchant_order)
  const type = transactionTypeKey(params.type)
  if (!sessionId || !isInitialTransactionType(type)) {
    return { action: PaymentActions.NOT_SUPPORTED }
  }
  const action = WEBHOOK_ACTIONS[toSessionStatus({ status: params.status, transactionType: type })]
  return { action, data: { session_id: sessionId, amount: WEBHOOK_AMOUNT } }
}

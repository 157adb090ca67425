/**
 * A retried renewal charge's record (core/recurring/retry-charge.ts): its client_orderid, and writing its final
 * outcome once, whichever path learns it first — the retry itself, or the recurring charge path
 * (charge-callback.ts) when the retry's callback or reconciliation got there first. Apart from retry-charge.ts so
 * that charge-callback.ts can use it without an import cycle.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { scrub } from "../../gateway/scrub"
import { isApproved } from "../../gateway/statuses"
import { service } from "./records"

/** The make-rebill client_orderid of a subscription's n-th retried charge. */
export const retryClientOrderId = (rowId: string, n: number) => `${rowId}-r${n}`
export const isRetryClientOrderId = (clientOrderId: string) => /-r\d+$/.test(clientOrderId.trim())

/** The fields of the rebill record a retry reads. */
export type RetryIntentRow = {
  id: string; state: "pending" | "succeeded" | "failed"; amount: string; currency_code: string; client_orderid: string | null
  gateway_order_id: string | null; gateway_status: string | null; error_message: string | null
}

/**
 * Writes a retried charge's final outcome onto its record (once): from runRetryCharge, and from the recurring charge
 * path when the retry's callback (or reconciliation) got there first. Nothing for any other charge.
 */
export async function settleRetryIntent(
  container: MedusaContainer, rpId: string, clientOrderId: string, gatewayOrderId: string, status: string, message: string | null
): Promise<void> {
  if (!isRetryClientOrderId(clientOrderId)) return
  const svc = service(container)
  const [row] = (await svc.listPaynetEasyRebills({ recurring_payment_id: rpId, client_orderid: clientOrderId.trim() }, { take: 1 })) as unknown as RetryIntentRow[]
  if (!row || row.state !== "pending") return
  const approved = isApproved(status)
  await svc.updatePaynetEasyRebills({
    id: row.id, state: approved ? "succeeded" : "failed", gateway_order_id: gatewayOrderId, gateway_status: status,
    error_message: approved ? null : scrub(message ?? `the gateway answered ${status}`),
  })
}

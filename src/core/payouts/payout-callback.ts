/**
 * Payout callbacks through the same path as payment callbacks (route → gateway-message.ts → callback log →
 * `payneteasy.callback.received` → process-callback.ts), with two payout-specific pieces:
 * - verification (core/callbacks/order-kinds.ts): a payout's client_orderid is the payout id (`pnepo_…`), so the
 *   control is checked with the control key of the provider registration that made the payout;
 * - `processPayoutCallback`: the callback is only a trigger: the payout follows STATUS (gateway-calls.ts), under the
 *   payout lock, and the callback's own answer is kept in the history row.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import type { CallbackRow } from "../../modules/payneteasy/service"
import { refreshFromStatus } from "./gateway-calls"
import { payoutIdOfCheck, settleEligibility } from "./eligibility"
import { payoutService, withPayoutLock, type PayoutRow } from "./payout-state"

export { PAYOUT_CLIENT_ORDER_PREFIX, isPayoutClientOrderId } from "../callbacks/order-kinds"

async function payoutByClientOrderId(container: MedusaContainer, clientOrderId: string): Promise<PayoutRow | undefined> {
  const [row] = (await payoutService(container).listPaynetEasyPayouts({ client_orderid: clientOrderId.trim() }, { take: 1 })) as unknown as PayoutRow[]
  return row
}

/** Returns the callback-log outcome for the row. */
export async function processPayoutCallback(
  container: MedusaContainer,
  row: CallbackRow
): Promise<{ outcome: "processed" | "ignored"; detail: string }> {
  const checkOf = payoutIdOfCheck(row.client_orderid.trim())
  if (checkOf) {
    // a PAN eligibility check's callback: a trigger only; STATUS of the check decides (eligibility.ts)
    const payout = await settleEligibility(container, checkOf, "gateway:callback", `callback ${row.type} ${row.status}; STATUS confirms`)
    return { outcome: "processed", detail: `payout ${payout.id}: ${payout.status} after its PAN eligibility callback (callback said ${row.status}; STATUS decides)` }
  }
  const found = await payoutByClientOrderId(container, row.client_orderid)
  if (!found) return { outcome: "ignored", detail: "payout callback for a payout we do not have" }
  if (found.gateway_order_id && found.gateway_order_id !== row.orderid) {
    return { outcome: "ignored", detail: `payout callback names orderid ${row.orderid}, the payout is ${found.gateway_order_id}` }
  }
  const payout = await withPayoutLock(container, found.id, async () => {
    const fresh = (await payoutByClientOrderId(container, row.client_orderid)) as PayoutRow
    const withOrder = fresh.gateway_order_id ? fresh : { ...fresh, gateway_order_id: row.orderid }
    return refreshFromStatus(container, withOrder, "gateway:callback", `callback ${row.type} ${row.status}; STATUS confirms`, {
      ...row.params,
      status: row.status,
      type: row.type,
    })
  })
  return { outcome: "processed", detail: `payout ${payout.id}: ${payout.status} (callback said ${row.status}; STATUS decides)` }
}

/**
 * A rebill's outcome, written onto its order and its row once, whichever path learns it first:
 * - the admin rebill itself, when the gateway answered at once (admin-rebill.ts chargeRebillStep, which already holds
 *   the order's rebill lock);
 * - settling the rebill's payment session later (settle-session.ts, from the gateway's callback or from
 *   reconciliation), when the admin rebill could only say the outcome was unknown. It takes the same lock, so it waits
 *   for an admin rebill of the same order still running.
 * Approved: one order transaction per capture of the Payment (book-captures.ts, what capturePaymentWorkflow adds), then the row `succeeded` with its Payment, so the order's outstanding amount is right.
 * Declined: the row `failed` with the gateway's reason, so the same rebill may be asked again.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { PAYNETEASY_MODULE } from "../../modules/payneteasy"
import type PaynetEasyModuleService from "../../modules/payneteasy/service"
import { bookCapturesOnOrder } from "../checkout/book-captures"
import { LOCK_KEYS } from "../locks/lock-keys"

/** The lock that serializes everything that charges or books a rebill of one order. */
export const rebillLockKey = LOCK_KEYS.rebill

const LOCK_TIMEOUT_S = 60

const rebills = (container: MedusaContainer) => container.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)

/** Books an approved rebill's Payment on its order and marks the row succeeded. Call under rebillLockKey(orderId). */
export async function recordRebillPayment(
  container: MedusaContainer,
  rebill: { id: string; order_id: string },
  paymentId: string,
  gatewayStatus?: string
): Promise<void> {
  await bookCapturesOnOrder(container, rebill.order_id, paymentId)
  await rebills(container).updatePaynetEasyRebills({
    id: rebill.id, state: "succeeded", payment_id: paymentId, error_message: null,
    ...(gatewayStatus ? { gateway_status: gatewayStatus } : {}),
  })
}

/**
 * After a payment session without a cart was settled: when it is a rebill's and the rebill is not booked yet, book it
 * (approved) or mark it failed (declined). Nothing for other sessions, or while the gateway has no final answer.
 */
export async function reflectRebillSettlement(
  container: MedusaContainer,
  sessionId: string,
  settled: { outcome: string; paymentId?: string; detail: string }
): Promise<void> {
  const approved = settled.outcome === "authorized" && !!settled.paymentId
  if (!approved && settled.outcome !== "failed") return
  const [row] = await rebills(container).listPaynetEasyRebills({ session_id: sessionId }, { take: 1 })
  // Only a row still waiting for its outcome: a failed one may have been asked again since, under the same key.
  if (!row || row.state !== "pending") return
  await container.resolve(Modules.LOCKING).execute(
    rebillLockKey(row.order_id),
    async () => {
      const [fresh] = await rebills(container).listPaynetEasyRebills({ id: row.id }, { take: 1 })
      if (!fresh || fresh.state !== "pending") return
      if (approved) {
        await recordRebillPayment(container, fresh, settled.paymentId!, "approved")
      } else {
        await rebills(container).updatePaynetEasyRebills({ id: fresh.id, state: "failed", error_message: settled.detail })
      }
    },
    { timeout: LOCK_TIMEOUT_S }
  )
}

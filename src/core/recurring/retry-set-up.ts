/**
 * Setting a recurring payment up again from the admin, after a person has looked at why it `needs_attention` (the
 * gateway unreachable through every step retry, or a create-recurring-payment reply lost with STATUS unable to tell).
 *
 * Under the order's set-up lock (`payneteasy:recurring:<order id>`, the one create-from-order.ts holds), the row goes
 * back to `pending`, only from `needs_attention` and only while it has no gateway recurring payment (one flagged after
 * it was set up, for a charge the gateway never reported, is refused: that needs a person at the gateway). Then the
 * set-up workflow runs for the order as `order.placed` ran it. It only touches `pending` rows, and a row that already
 * sent its request once asks STATUS by its client-orderid before anything else, so a recurring payment the gateway did
 * make is adopted, never created twice. Two retries at once: the second finds the row no longer `needs_attention`
 * (409: `pending` while the first runs, then `active` or whatever the first left).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { ADMIN_LOCK_WAIT_SECONDS, underLock } from "../locks/busy-lock"
import type { RecurringPaymentRow } from "../../modules/payneteasy/service"
import { createRecurringFromOrderWorkflow } from "../../workflows/payneteasy/recurring/create-from-order"
import { service } from "./records"

async function rowById(container: MedusaContainer, id: string): Promise<RecurringPaymentRow | undefined> {
  return ((await service(container).listPaynetEasyRecurringPayments({ id }, { take: 1 })) as RecurringPaymentRow[])[0]
}

/** Puts recurring payment `id` back to `pending` and runs the set-up again; returns the row as the set-up left it. */
export async function retryRecurringSetUp(container: MedusaContainer, id: string): Promise<RecurringPaymentRow> {
  const found = await rowById(container, id)
  if (!found) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Recurring payment ${id} was not found`)
  await underLock(container, `payneteasy:recurring:${found.order_id}`, async () => {
    const row = (await rowById(container, id))!
    if (row.status !== "needs_attention") {
      throw new MedusaError(MedusaError.Types.CONFLICT, `Recurring payment ${id} is ${row.status}: only one that needs attention is set up again`)
    }
    if (row.recurring_payment_id) {
      // flagged after it was set up (reconciliation: a charge the gateway never reported): setting it up again would
      // make a new card reference and hide the flag, not find the charge
      throw new MedusaError(MedusaError.Types.CONFLICT,
        `Recurring payment ${id} was set up (gateway recurring payment ${row.recurring_payment_id}); it needs attention for another reason: check the gateway`)
    }
    await service(container).updatePaynetEasyRecurringPayments({ id, status: "pending", reason: null })
  }, { timeoutSeconds: ADMIN_LOCK_WAIT_SECONDS, busy: `Recurring payment ${id} is being set up right now (order ${found.order_id}); try again when it has finished` })
  // A set-up that fails again leaves the row needs_attention with the new reason (the reserve step's compensation):
  // that row is the answer, not an error.
  await createRecurringFromOrderWorkflow(container).run({ input: { order_id: found.order_id }, throwOnError: false })
  return (await rowById(container, id))!
}

/**
 * Setting a recurring payment up again from the admin, after a person has looked at why it `needs_attention` (the
 * gateway unreachable through every step retry, or a create-recurring-payment reply lost with STATUS unable to tell).
 * A workflow (issue 33: money actions are workflows), `payneteasy-retry-recurring-set-up`, whose steps each do one thing:
 *
 *  1. payneteasy-recurring-reopen-set-up  under the order's set-up lock (`payneteasy:recurring:<order id>`, the one
 *     create-from-order.ts holds), the row goes back to `pending`, only from `needs_attention` and only while it has
 *     no gateway recurring payment (one flagged after it was set up, for a charge the gateway never reported, is
 *     refused: that needs a person at the gateway). Two retries at once: the second finds the row no longer
 *     `needs_attention` (409: `pending` while the first runs, then `active` or whatever the first left). Undone by
 *     putting the row back to `needs_attention` with its reason, while it is still `pending` (nothing was sent yet);
 *  2. hook recurringSetUpReopened           a store's own step ({ id, order_id }); if it fails, 1 is undone, nothing sent;
 *  3. payneteasy-recurring-run-set-up       the set-up workflow for the order, as `order.placed` ran it. It only
 *     touches `pending` rows, and a row that already sent its request once asks STATUS by its client-orderid before
 *     anything else, so a recurring payment the gateway did make is adopted, never created twice. A set-up that fails
 *     again leaves the row needs_attention with the new reason (its reserve step's compensation): that row is the
 *     answer, not an error. Not undone: what the gateway made is recorded, never rolled back (create-from-order.ts);
 *  4. payneteasy-recurring-read-row         the row as the set-up left it.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { createHook, createStep, createWorkflow, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { ADMIN_LOCK_WAIT_SECONDS, underLock } from "../../../core/locks/busy-lock"
import type { RecurringPaymentRow } from "../../../modules/payneteasy/service"
import { service } from "../../../core/recurring/records"
import { createRecurringFromOrderWorkflow } from "./create-from-order"
import { LOCK_KEYS } from "../../../core/locks/lock-keys"

export const RETRY_RECURRING_SET_UP_WORKFLOW = "payneteasy-retry-recurring-set-up"

async function rowById(container: MedusaContainer, id: string): Promise<RecurringPaymentRow | undefined> {
  return ((await service(container).listPaynetEasyRecurringPayments({ id }, { take: 1 })) as RecurringPaymentRow[])[0]
}

type Reopened = { id: string; order_id: string; reason: string | null }

const lockKey = LOCK_KEYS.recurring

const reopenSetUpStep = createStep(
  "payneteasy-recurring-reopen-set-up",
  async (input: { id: string }, { container }) => {
    const { id } = input
    const found = await rowById(container, id)
    if (!found) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Recurring payment ${id} was not found`)
    const reopened = await underLock(container, lockKey(found.order_id), async (): Promise<Reopened> => {
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
      return { id, order_id: row.order_id, reason: row.reason }
    }, { timeoutSeconds: ADMIN_LOCK_WAIT_SECONDS, busy: `Recurring payment ${id} is being set up right now (order ${found.order_id}); try again when it has finished` })
    return new StepResponse(reopened, reopened)
  },
  async (reopened, { container }) => {
    if (!reopened) return
    await underLock(container, lockKey(reopened.order_id), async () => {
      const row = await rowById(container, reopened.id)
      // still pending with no gateway recurring payment: the set-up never ran for it, so nothing was sent
      if (row?.status !== "pending" || row.recurring_payment_id) return
      await service(container).updatePaynetEasyRecurringPayments({ id: reopened.id, status: "needs_attention", reason: reopened.reason })
    }, { timeoutSeconds: ADMIN_LOCK_WAIT_SECONDS * 6, busy: `Recurring payment ${reopened.id} is being set up right now` })
  }
)

const runSetUpStep = createStep("payneteasy-recurring-run-set-up", async (input: { order_id: string }, { container }) => {
  // a failure is recorded on the row by the set-up's own compensation: the row is the answer (step 4)
  const { errors } = await createRecurringFromOrderWorkflow(container).run({ input: { order_id: input.order_id }, throwOnError: false })
  return new StepResponse({ failed: !!errors?.length })
})

const readRowStep = createStep("payneteasy-recurring-read-row", async (input: { id: string }, { container }) => {
  return new StepResponse((await rowById(container, input.id))!)
})

export const retryRecurringSetUpWorkflow = createWorkflow(RETRY_RECURRING_SET_UP_WORKFLOW, (input: { id: string }) => {
  const reopened = reopenSetUpStep(input)
  const hook = createHook("recurringSetUpReopened", transform({ reopened }, ({ reopened }) => ({ id: reopened.id, order_id: reopened.order_id })))
  runSetUpStep(transform({ reopened }, ({ reopened }) => ({ order_id: reopened.order_id })))
  return new WorkflowResponse(readRowStep({ id: input.id }), { hooks: [hook] })
})

/** Puts recurring payment `id` back to `pending` and runs the set-up again; returns the row as the set-up left it. */
export async function retryRecurringSetUp(container: MedusaContainer, id: string): Promise<RecurringPaymentRow> {
  const { result } = await retryRecurringSetUpWorkflow(container).run({ input: { id } })
  return result as RecurringPaymentRow
}

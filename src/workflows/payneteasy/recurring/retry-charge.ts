/**
 * "Retry the charge" of a past-due subscription (issue 35), a workflow (issue 33: money actions are workflows),
 * `payneteasy-retry-renewal-charge`, on the admin rebill's machinery (saved-cards/admin-rebill.ts): the same lock and
 * the same intent record (core/recurring/retry-charge.ts says why and how). Its steps:
 *
 *  1. acquire-lock                        `payneteasy:rebill:<the subscription's first order>` (rebillLockKey, what the
 *                                         admin rebill of that order takes): a double click or two admins at once run
 *                                         one after the other; the second finds the subscription active (409) or the
 *                                         first one's retry still pending (settled by STATUS, nothing sent twice);
 *  2. payneteasy-retry-charge-prepare     the retry still pending, if any (settled first, never a new id); else refuses
 *                                         a subscription that is not past due or has no card the gateway can charge
 *                                         (409, nothing written), else writes the retry's record with its
 *                                         client_orderid `<id>-r<n>` before anything is sent;
 *  3. payneteasy-retry-charge-send        make-rebill once (or STATUS for the pending one); a final answer goes the
 *                                         way a renewal charge goes (charge-callback.ts: the renewal-order workflow,
 *                                         the subscription active again; or past due with the gateway's reason). Not
 *                                         undone: what the gateway did is recorded, never rolled back;
 *  4. release-lock.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { createStep, createWorkflow, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { RecurringPaymentRow } from "../../../modules/payneteasy/service"
import { service } from "../../../core/recurring/records"
import { rebillLockKey } from "../../../core/saved-cards/rebill-outcome"
import { pendingRetry, recordRetryIntent, retryRefusal, runRetryCharge, type RetryRefusal } from "../../../core/recurring/retry-charge"
import type { RetryIntentRow } from "../../../core/recurring/retry-intent"
import { runRenewalOrder } from "./renewal-order"

export const RETRY_RENEWAL_CHARGE_WORKFLOW = "payneteasy-retry-renewal-charge"

type Input = { id: string; order_id: string; requested_by?: string | null }

async function rowById(container: MedusaContainer, id: string): Promise<RecurringPaymentRow> {
  const [rp] = (await service(container).listPaynetEasyRecurringPayments({ id }, { take: 1 })) as RecurringPaymentRow[]
  if (!rp) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Subscription ${id} was not found`)
  return rp
}

/** The refusal a workflow error carries (an own property survives the engine's error serialization), if it is one. */
export const retryRefusalOf = (e: unknown): RetryRefusal | undefined => (e as { retry_refusal?: RetryRefusal })?.retry_refusal
/** Whether a workflow error says the charge never reached the gateway (nothing charged). */
export const retryNotSent = (e: unknown): boolean => (e as { retry_not_sent?: boolean })?.retry_not_sent === true

const prepareRetryChargeStep = createStep("payneteasy-retry-charge-prepare", async (input: Input, { container }) => {
  const rp = await rowById(container, input.id)
  const pending = await pendingRetry(container, rp.id)
  if (pending) return new StepResponse({ row_id: pending.id, resumed: true })
  const refusal = retryRefusal(rp)
  if (refusal) throw Object.assign(new MedusaError(MedusaError.Types.CONFLICT, refusal.message), { retry_refusal: refusal })
  const row = await recordRetryIntent(container, rp, input.requested_by ?? null)
  return new StepResponse({ row_id: row.id, resumed: false })
})

const sendRetryChargeStep = createStep(
  "payneteasy-retry-charge-send",
  async (input: { id: string; row_id: string; resumed: boolean }, { container }) => {
    const rp = await rowById(container, input.id)
    const [row] = (await service(container).listPaynetEasyRebills({ id: input.row_id }, { take: 1 })) as unknown as RetryIntentRow[]
    const { retry } = await runRetryCharge(container, rp, row, input.resumed, runRenewalOrder)
    return new StepResponse(retry)
  }
)

export const retryRenewalChargeWorkflow = createWorkflow(RETRY_RENEWAL_CHARGE_WORKFLOW, (input: Input) => {
  const key = transform({ input }, ({ input }) => rebillLockKey(input.order_id))
  acquireLockStep({ key, timeout: 60, ttl: 120 })
  const prepared = prepareRetryChargeStep(input)
  const retry = sendRetryChargeStep(transform({ input, prepared }, ({ input, prepared }) => ({ id: input.id, ...prepared })))
  releaseLockStep({ key })
  return new WorkflowResponse(retry)
})

/**
 * Reconciliation of recurring charges whose callback never came, as a workflow per recurring payment (issue 33: money
 * actions are workflows); the domain and its rules are in core/recurring/reconcile-charges.ts. Run by the
 * `payneteasy-reconcile-recurring` job through `reconcileRecurringCharges`: one tick at a time across instances
 * (RECURRING_TICK_LOCK, core/locks/tick-lock.ts), at most LIMIT due recurring payments, each in
 * `payneteasy-reconcile-recurring-payment`, whose steps each do one thing:
 *
 *  1. payneteasy-recurring-find-overdue-charge  STATUS for the charges expected next (read-only: nothing to undo)
 *  2. payneteasy-recurring-record-found-charge  (the gateway knows one) the callback's own path, its lock and
 *                                               de-duplication (core/recurring/charge-callback.ts), with the renewal
 *                                               order workflow; not undone: the charge is a fact at the gateway, and the
 *                                               renewal workflow undoes its own steps when one fails
 *  3. payneteasy-recurring-flag-overdue         (the gateway knows none) more than the grace late → needs_attention with
 *                                               the reason; undone by putting the row back, unless it changed since
 *  4. payneteasy-recurring-schedule-recheck     (found, or not yet overdue) ask again after RECHECK_MS; undone by
 *                                               restoring the next check
 *  5. hook recurringPaymentReconciled           a store's own step ({ id, verdict }); if it fails, 4 and 3 are undone
 *
 * A run that fails is counted as an error and the row is asked about again after RECHECK_MS, never in a tight loop.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createHook, createStep, createWorkflow, StepResponse, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { scrub } from "../../../gateway/scrub"
import type { RecurringPaymentRow } from "../../../modules/payneteasy/service"
import { processRecurringCharge, type ChargeReport } from "../../../core/recurring/charge-callback"
import {
  dueRecurringPayments, findOverdueCharge, flagIfOverdue, RECHECK_MS, RECURRING_TICK_LOCK, restoreNextCheck, scheduleRecheck,
  unflagOverdue, type RecurringReconcileReport,
} from "../../../core/recurring/reconcile-charges"
import { underTickLock } from "../../../core/locks/tick-lock"
import { service } from "../../../core/recurring/records"
import { runRenewalOrder } from "./renewal-order"

export const RECONCILE_RECURRING_PAYMENT_WORKFLOW = "payneteasy-reconcile-recurring-payment"

type Input = { rp: RecurringPaymentRow; checkedAt: string }
type Verdict = "found" | "waiting" | "flagged"
type Flag = Awaited<ReturnType<typeof flagIfOverdue>>

const findOverdueChargeStep = createStep("payneteasy-recurring-find-overdue-charge", async (input: { rp: RecurringPaymentRow }, { container }) => {
  return new StepResponse(await findOverdueCharge(container, input.rp))
})

const recordFoundChargeStep = createStep(
  "payneteasy-recurring-record-found-charge",
  async (input: { rp: RecurringPaymentRow; found: ChargeReport }, { container }) => {
    const result = await processRecurringCharge(container, input.found, runRenewalOrder)
    container.resolve(ContainerRegistrationKeys.LOGGER).info(
      `PaynetEasy: recurring charge ${input.found.orderid} of ${input.rp.id} found by reconciliation (its callback never came): ${result.outcome}, ${scrub(result.detail)}`)
    return new StepResponse(result)
  }
)

const flagOverdueStep = createStep(
  "payneteasy-recurring-flag-overdue",
  async (input: { rp: RecurringPaymentRow; asked: string[]; checkedAt: string }, { container }) => {
    const flag = await flagIfOverdue(container, input.rp, input.asked, new Date(input.checkedAt))
    return new StepResponse<Flag, Flag>(flag, flag)
  },
  async (flag, { container }) => {
    if (flag?.verdict === "flagged") await unflagOverdue(container, flag.before, flag.reason)
  }
)

const scheduleRecheckStep = createStep(
  "payneteasy-recurring-schedule-recheck",
  async (input: { id: string; checkedAt: string }, { container }) => {
    const previous = await scheduleRecheck(container, input.id, new Date(input.checkedAt))
    return new StepResponse(input.id, { id: input.id, previous })
  },
  async (undo, { container }) => {
    if (undo) await restoreNextCheck(container, undo.id, undo.previous)
  }
)

export const reconcileRecurringPaymentWorkflow = createWorkflow(RECONCILE_RECURRING_PAYMENT_WORKFLOW, (input: Input) => {
  const lookup = findOverdueChargeStep({ rp: input.rp })
  const recorded = when("payneteasy-recurring-charge-found", { lookup }, ({ lookup }) => !!lookup.found).then(() =>
    recordFoundChargeStep(transform({ input, lookup }, ({ input, lookup }) => ({ rp: input.rp, found: lookup.found! }))))
  const flag = when("payneteasy-recurring-charge-unknown", { lookup }, ({ lookup }) => !lookup.found).then(() =>
    flagOverdueStep(transform({ input, lookup }, ({ input, lookup }) => ({ rp: input.rp, asked: lookup.asked, checkedAt: input.checkedAt }))))
  const verdict = transform({ recorded, flag }, ({ recorded, flag }): Verdict =>
    recorded ? "found" : flag?.verdict === "flagged" ? "flagged" : "waiting")
  when("payneteasy-recurring-recheck-later", { flag }, ({ flag }) => flag?.verdict !== "flagged" && flag?.verdict !== "answered").then(() =>
    scheduleRecheckStep(transform({ input }, ({ input }) => ({ id: input.rp.id, checkedAt: input.checkedAt }))))
  const reconciled = createHook("recurringPaymentReconciled", transform({ input, verdict }, ({ input, verdict }) => ({ id: input.rp.id, verdict })))
  return new WorkflowResponse(verdict, { hooks: [reconciled] })
})

/** One reconciliation tick. Tests call it directly; the scheduled job calls it every minute. */
export async function reconcileRecurringCharges(container: MedusaContainer, options: { now?: () => Date } = {}): Promise<RecurringReconcileReport> {
  const now = options.now ?? (() => new Date())
  const report: RecurringReconcileReport = { skipped: false, checked: 0, found: 0, flagged: 0, errors: 0 }
  const done = await underTickLock(container, RECURRING_TICK_LOCK, async () => {
    for (const rp of await dueRecurringPayments(container, now())) {
      if (!rp.provider_id) continue
      report.checked++
      try {
        const { result } = await reconcileRecurringPaymentWorkflow(container).run({ input: { rp, checkedAt: now().toISOString() } })
        if (result === "found") report.found++
        if (result === "flagged") report.flagged++
      } catch (e) {
        report.errors++
        await service(container).updatePaynetEasyRecurringPayments({ id: rp.id, next_check_at: new Date(now().getTime() + RECHECK_MS) }).catch(() => undefined)
        container.resolve(ContainerRegistrationKeys.LOGGER).warn(`PaynetEasy recurring reconciliation of ${rp.id} failed: ${scrub((e as Error)?.message ?? String(e))}`)
      }
    }
    return report
  })
  return done ?? { ...report, skipped: true }
}

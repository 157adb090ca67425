/**
 * Reconciliation of payouts that are not final, as a workflow per payout (issue 33: money actions are workflows); the
 * domain and its rules (backoff, giving up after the hour, never a re-send) are in core/payouts/reconcile-payouts.ts.
 * Run by the `payneteasy-reconcile-payouts` job through `reconcilePayouts`: one tick at a time across instances
 * (PAYOUT_TICK_LOCK, core/locks/tick-lock.ts), at most LIMIT due payouts, each in `payneteasy-reconcile-payout`:
 *
 *  1. acquire-lock-step                 the payout's lock (`payneteasy:payout:<id>`, the one confirm and callbacks
 *                                       hold); undone by releasing it
 *  2. payneteasy-payout-refresh         read it again, and unless final by now, STATUS and the payout follows it. Not
 *                                       undone: it records what the gateway says (history rows), and asks, never sends
 *  3. payneteasy-payout-schedule-check  (still not final) the next check on the backoff, or polling stopped after the
 *                                       hour; undone by putting the next check and the count back
 *  4. hook payoutReconciled             a store's own step ({ id, status, changed }), under the lock; if it fails, 3 is undone
 *  5. release-lock-step
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createHook, createStep, createWorkflow, StepResponse, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { randomUUID } from "node:crypto"
import { scrub } from "../../../gateway/scrub"
import { underTickLock } from "../../../core/locks/tick-lock"
import { isFinalPayout, LOCK_TIMEOUT_S, payoutLockKey, type PayoutRow } from "../../../core/payouts/payout-state"
import {
  duePayouts, PAYOUT_TICK_LOCK, refreshOpenPayout, restorePayoutCheck, schedulePayoutCheck, type PayoutCheckSnapshot,
  type PayoutReconcileReport,
} from "../../../core/payouts/reconcile-payouts"

export const RECONCILE_PAYOUT_WORKFLOW = "payneteasy-reconcile-payout"
/** Longer than a STATUS round trip with the client's retries; expires should the process die holding it. */
const LOCK_TTL_S = 120

type Input = { id: string; checkedAt: string; lockOwner: string }

const refreshPayoutStep = createStep("payneteasy-payout-refresh", async (input: { id: string }, { container }) => {
  return new StepResponse(await refreshOpenPayout(container, input.id))
})

const schedulePayoutCheckStep = createStep(
  "payneteasy-payout-schedule-check",
  async (input: { payout: PayoutRow; checkedAt: string }, { container }) => {
    const before = await schedulePayoutCheck(container, input.payout, new Date(input.checkedAt))
    return new StepResponse<string, PayoutCheckSnapshot>(input.payout.id, before)
  },
  async (before, { container }) => {
    if (before) await restorePayoutCheck(container, before)
  }
)

export const reconcilePayoutWorkflow = createWorkflow(RECONCILE_PAYOUT_WORKFLOW, (input: Input) => {
  const lockKey = transform({ input }, ({ input }) => payoutLockKey(input.id))
  acquireLockStep({ key: lockKey, ownerId: input.lockOwner, timeout: LOCK_TIMEOUT_S, ttl: LOCK_TTL_S })
  const refreshed = refreshPayoutStep({ id: input.id })
  when("payneteasy-payout-still-open", { refreshed }, ({ refreshed }) => !isFinalPayout(refreshed.payout.status)).then(() =>
    schedulePayoutCheckStep(transform({ refreshed, input }, ({ refreshed, input }) => ({ payout: refreshed.payout, checkedAt: input.checkedAt }))))
  const outcome = transform({ refreshed }, ({ refreshed }) => ({ id: refreshed.payout.id, status: refreshed.payout.status, changed: refreshed.changed }))
  const reconciled = createHook("payoutReconciled", outcome)
  releaseLockStep({ key: lockKey, ownerId: input.lockOwner })
  return new WorkflowResponse(outcome, { hooks: [reconciled] })
})

/** One reconciliation tick. Tests call it directly; the scheduled job calls it every 3 s. */
export async function reconcilePayouts(container: MedusaContainer, options: { now?: () => Date } = {}): Promise<PayoutReconcileReport> {
  const now = options.now ?? (() => new Date())
  const report: PayoutReconcileReport = { skipped: false, checked: 0, changed: 0, errors: 0 }
  const done = await underTickLock(container, PAYOUT_TICK_LOCK, async () => {
    for (const row of await duePayouts(container, now())) {
      report.checked++
      try {
        const { result } = await reconcilePayoutWorkflow(container).run({
          input: { id: row.id, checkedAt: now().toISOString(), lockOwner: `payneteasy-payout-reconcile-${randomUUID()}` },
        })
        if (result.changed) report.changed++
      } catch (e) {
        report.errors++
        container.resolve(ContainerRegistrationKeys.LOGGER).warn(`PaynetEasy payout reconciliation of ${row.id} failed: ${scrub((e as Error)?.message ?? String(e))}`)
      }
    }
    return report
  })
  return done ?? { ...report, skipped: true }
}

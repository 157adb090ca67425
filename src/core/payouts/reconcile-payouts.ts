/**
 * Reconciliation of payouts that are not final (pending after a lost reply, checking, processing, hosted form
 * waiting): STATUS by client_orderid on the gateway's backoff (backoff.ts: every 3–5 s for five minutes, then every
 * 5–10 minutes up to an hour), under the payout lock; after the hour the payout is left for a person (a history row
 * says so and polling stops; a later callback still updates it). Run by the `payneteasy-reconcile-payouts` job.
 * A tick lock keeps instances from overlapping; a `pending` payout is never re-sent from here, only asked about.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { scrub } from "../../gateway/scrub"
import { nextCheckAt } from "../reconciliation/backoff"
import { underTickLock } from "../locks/tick-lock"
import { refreshFromStatus } from "./gateway-calls"
import { applyChange, getPayout, isFinalPayout, payoutService, withPayoutLock, type PayoutRow } from "./payout-state"

export const PAYOUT_TICK_LOCK = "payneteasy:payouts:tick"
const OPEN_STATUSES = ["pending", "checking", "processing", "form_issued"]
const LIMIT = 25

export type PayoutReconcileReport = { skipped: boolean; checked: number; changed: number; errors: number }

export async function reconcilePayouts(container: MedusaContainer, options: { now?: () => Date } = {}): Promise<PayoutReconcileReport> {
  const now = options.now ?? (() => new Date())
  const report: PayoutReconcileReport = { skipped: false, checked: 0, changed: 0, errors: 0 }
  const done = await underTickLock(container, PAYOUT_TICK_LOCK, async () => {
    const due = (await payoutService(container).listPaynetEasyPayouts(
      { status: OPEN_STATUSES, next_check_at: { $lte: now() } } as Record<string, unknown>,
      { take: LIMIT, order: { next_check_at: "ASC" } }
    )) as unknown as PayoutRow[]
    for (const row of due) {
      report.checked++
      try {
        await withPayoutLock(container, row.id, async () => {
          const fresh = (await getPayout(container, row.id)) as PayoutRow
          if (isFinalPayout(fresh.status)) return
          const after = await refreshFromStatus(container, fresh, "gateway:status", "reconciliation: STATUS")
          if (after.status !== fresh.status) report.changed++
          if (isFinalPayout(after.status)) return
          const next = nextCheckAt(new Date(after.created_at), now())
          if (next) {
            await payoutService(container).updatePaynetEasyPayouts({ id: after.id, next_check_at: next, checks: after.checks + 1 } as any)
          } else {
            await applyChange(container, after, {
              actor: "system", event: "no final gateway status after an hour: polling stopped, a person must check it",
              patch: { next_check_at: null, checks: after.checks + 1 },
            })
          }
        })
      } catch (e) {
        report.errors++
        container.resolve(ContainerRegistrationKeys.LOGGER).warn(`PaynetEasy payout reconciliation of ${row.id} failed: ${scrub((e as Error)?.message ?? String(e))}`)
      }
    }
    return report
  })
  return done ?? { ...report, skipped: true }
}

/**
 * The domain of the reconciliation of payouts (the steps of core/payouts/reconcile-payouts.ts call
 * these functions, one payout per workflow run, under the payout's lock and the tick lock).
 * Reconciliation of payouts that are not final (pending after a lost reply, checking, processing, hosted form
 * waiting): STATUS by client_orderid on the gateway's backoff (backoff.ts: every 3–5 s for five minutes, then every
 * 5–10 minutes up to an hour), under the payout lock; after the hour the payout is left for a person (a history row
 * says so and polling stops; a later callback still updates it). Run by the `payneteasy-reconcile-payouts` job.
 * A tick lock keeps instances from overlapping; a `pending` payout is never re-sent from here, only asked about.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { nextCheckAt } from "../reconciliation/backoff"
import { refreshFromStatus } from "./gateway-calls"
import { settleEligibilityLocked } from "./eligibility"
import { applyChange, getPayout, payoutService, type PayoutRow } from "./payout-state"
import { isFinalPayout, OPEN_PAYOUT_STATUSES } from "./payout-phase"
import { LOCK_KEYS } from "../locks/lock-keys"

export const PAYOUT_TICK_LOCK = LOCK_KEYS.payoutsTick
const LIMIT = 25

export type PayoutReconcileReport = { skipped: boolean; checked: number; changed: number; errors: number }

/** Payouts not final whose own next check has come (at most LIMIT, the most overdue first). */
export async function duePayouts(container: MedusaContainer, now: Date): Promise<PayoutRow[]> {
  return (await payoutService(container).listPaynetEasyPayouts(
    { status: [...OPEN_PAYOUT_STATUSES], next_check_at: { $lte: now } } as Record<string, unknown>,
    { take: LIMIT, order: { next_check_at: "ASC" } }
  )) as unknown as PayoutRow[]
}

/**
 * Payout `id` read again (the caller holds its lock) and, unless final by now, brought to what STATUS says (a history
 * row per change). `changed`: the status moved. Never re-sends anything.
 */
export async function refreshOpenPayout(container: MedusaContainer, id: string): Promise<{ payout: PayoutRow; changed: boolean }> {
  const fresh = (await getPayout(container, id)) as PayoutRow
  if (isFinalPayout(fresh.status)) return { payout: fresh, changed: false }
  const after = fresh.status === "eligibility_checking"
    ? await settleEligibilityLocked(container, id, "gateway:status", "reconciliation: STATUS")
    : await refreshFromStatus(container, fresh, "gateway:status", "reconciliation: STATUS")
  return { payout: after, changed: after.status !== fresh.status }
}

export type PayoutCheckSnapshot = { id: string; next_check_at: Date | string | null; checks: number }

/**
 * A payout still not final: its next check on the backoff, or, after the hour, polling stopped with a history row
 * saying a person must check it. Returns what it replaced (next check, checks) for undoing it.
 */
export async function schedulePayoutCheck(container: MedusaContainer, payout: PayoutRow, now: Date): Promise<PayoutCheckSnapshot> {
  const before: PayoutCheckSnapshot = { id: payout.id, next_check_at: payout.next_check_at ?? null, checks: payout.checks }
  const next = nextCheckAt(new Date(payout.created_at), now)
  if (next) {
    await payoutService(container).updatePaynetEasyPayouts({ id: payout.id, next_check_at: next, checks: payout.checks + 1 })
  } else {
    await applyChange(container, payout, {
      actor: "system", event: "no final gateway status after an hour: polling stopped, a person must check it",
      patch: { next_check_at: null, checks: payout.checks + 1 },
    })
  }
  return before
}

/** Puts a payout's next check back (the history row of a stop, if any, stays: the history is append-only). */
export async function restorePayoutCheck(container: MedusaContainer, before: PayoutCheckSnapshot): Promise<void> {
  await payoutService(container).updatePaynetEasyPayouts({
    id: before.id, checks: before.checks, next_check_at: before.next_check_at ? new Date(before.next_check_at) : null,
  })
}

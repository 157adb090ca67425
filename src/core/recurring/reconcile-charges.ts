/**
 * The domain of the reconciliation of recurring charges (the steps of workflows/payneteasy/recurring/
 * reconcile-charges.ts call these functions, one recurring payment per workflow run, under the tick lock).
 * Reconciliation of recurring charges whose callback never came (issue 14: the gateway charged the card, every
 * callback attempt was lost, so no renewal order was made). Run by the `payneteasy-reconcile-recurring` job.
 * Its tick (core/recurring/reconcile-charges.ts) runs under RECURRING_TICK_LOCK.
 *
 * For an active (or past-due) recurring payment whose `next_charge_at` has passed (and whose own `next_check_at` has come), STATUS
 * is asked for the charge we expect next: `<row id>-c<n>`, n = the highest charge number recorded + 1 (then any lower
 * number never recorded), the form callbacks carry (README "Recurring payments", core/callbacks/order-kinds.ts). When STATUS
 * names that charge, it goes through processRecurringCharge — the callback's own code path, lock and de-duplication
 * (one charge row per gateway order), so a callback arriving later finds it recorded and makes no second order.
 * When the gateway knows none of them: asked again after RECHECK_MS, and once the charge is more than
 * OVERDUE_GRACE_MS late the recurring payment becomes `needs_attention` with the reason (shown in the admin list),
 * never silently; a charge arriving later clears that flag (charge-callback.ts).
 * Bounded work per tick: at most LIMIT recurring payments, MAX_ASKS STATUS calls each; a tick lock keeps instances apart.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { isNotFound } from "../connection"
import { cardsClient } from "../connection/cards-config"
import type { RecurringPaymentRow } from "../../modules/payneteasy/service"
import { expectedChargeIds } from "./charge-ids"
import { OVERDUE_REASON_PREFIX, type ChargeReport } from "./charge-callback"
import { service } from "./records"
import { statusFields } from "../../gateway/requests"
import { orderIdOf } from "../../gateway/replies"
import { LOCK_KEYS } from "../locks/lock-keys"
import { CHARGING_RECURRING_STATUSES, isCharging } from "./recurring-phase"

export const RECURRING_TICK_LOCK = LOCK_KEYS.recurringTick
const LIMIT = 10
const MAX_ASKS = 3
/** How long an overdue recurring payment waits before the gateway is asked again. */
export const RECHECK_MS = 10 * 60_000
/** How late a charge may be (the gateway's schedule runs on its own clock) before a person is asked to look. */
export const OVERDUE_GRACE_MS = 48 * 3_600_000

export type RecurringReconcileReport = { skipped: boolean; checked: number; found: number; flagged: number; errors: number }

/** Active recurring payments whose charge is overdue and whose own next check has come (at most LIMIT). */
export async function dueRecurringPayments(container: MedusaContainer, at: Date): Promise<RecurringPaymentRow[]> {
  return (await service(container).listPaynetEasyRecurringPayments(
    { status: [...CHARGING_RECURRING_STATUSES], recurring_payment_id: { $ne: null }, next_charge_at: { $lte: at }, $or: [{ next_check_at: null }, { next_check_at: { $lte: at } }] },
    { take: LIMIT, order: { next_charge_at: "ASC" } }
  )) as RecurringPaymentRow[]
}

export type OverdueLookup = { asked: string[]; found: ChargeReport | null }

/**
 * STATUS for the charges we expect next (`<row id>-c<n>`, at most MAX_ASKS): the first the gateway knows, as a charge
 * report the callback's own path takes; read-only.
 */
export async function findOverdueCharge(container: MedusaContainer, rp: RecurringPaymentRow): Promise<OverdueLookup> {
  const charges = (await service(container).listPaynetEasyRecurringCharges({ recurring_payment_row_id: rp.id }, { select: ["client_orderid"] })) as Array<{ client_orderid: string }>
  const asked = expectedChargeIds(rp.id, charges.map((c) => c.client_orderid), MAX_ASKS)
  const client = cardsClient(container, rp.provider_id!)
  for (const clientOrderId of asked) {
    let status
    try {
      status = await client.request("STATUS", statusFields({ clientOrderId }))
    } catch (e) {
      if (isNotFound(e)) continue
      throw e
    }
    const orderid = orderIdOf(status)
    if (!orderid) continue
    return { asked, found: { client_orderid: clientOrderId, orderid, amount: status.amount ?? null, currency: status.currency ?? null } }
  }
  return { asked, found: null }
}

/**
 * The gateway knows none of the expected charges: within OVERDUE_GRACE_MS of the due date it is `waiting`; later the
 * recurring payment becomes `needs_attention` with the reason (under its lock; a callback that came meanwhile moved
 * next_charge_at on, and then it is `answered`: nothing to flag, nothing to ask again). `before` is what the flag replaced (status, reason, next check), for undoing it.
 */
export async function flagIfOverdue(
  container: MedusaContainer, rp: RecurringPaymentRow, asked: string[], now: Date
): Promise<{ verdict: "waiting" | "answered" } | { verdict: "flagged"; reason: string; before: Pick<RecurringPaymentRow, "id" | "status" | "reason" | "next_check_at"> }> {
  const due = new Date(rp.next_charge_at!)
  if (now.getTime() - due.getTime() <= OVERDUE_GRACE_MS) return { verdict: "waiting" }
  const svc = service(container)
  const reason = `${OVERDUE_REASON_PREFIX} for recurring payment ${rp.recurring_payment_id}: the charge due ${due.toISOString()} is more than ` +
    `${OVERDUE_GRACE_MS / 3_600_000} h late and STATUS knows none of ${asked.join(", ")}; a person must check it in the PaynetEasy merchant portal`
  const before = await container.resolve(Modules.LOCKING).execute(LOCK_KEYS.recurring(rp.id), async () => {
    const [fresh] = (await svc.listPaynetEasyRecurringPayments({ id: rp.id }, { take: 1 })) as RecurringPaymentRow[]
    // a callback may have come meanwhile: it moved next_charge_at on
    if (!fresh || !isCharging(fresh.status) || !fresh.next_charge_at || new Date(fresh.next_charge_at).getTime() > now.getTime()) return null
    await svc.updatePaynetEasyRecurringPayments({ id: rp.id, status: "needs_attention", reason, next_check_at: null })
    return { id: fresh.id, status: fresh.status, reason: fresh.reason, next_check_at: fresh.next_check_at }
  }, { timeout: 30 })
  if (!before) return { verdict: "answered" }
  container.resolve(ContainerRegistrationKeys.LOGGER).warn(`PaynetEasy: recurring payment ${rp.id} needs attention: ${reason}`)
  return { verdict: "flagged", reason, before }
}

/** Undoes a flag flagIfOverdue set, unless the row changed since (a charge came and cleared it, a person acted). */
export async function unflagOverdue(container: MedusaContainer, before: Pick<RecurringPaymentRow, "id" | "status" | "reason" | "next_check_at">, reason: string): Promise<void> {
  const svc = service(container)
  await container.resolve(Modules.LOCKING).execute(LOCK_KEYS.recurring(before.id), async () => {
    const [now] = (await svc.listPaynetEasyRecurringPayments({ id: before.id }, { take: 1 })) as RecurringPaymentRow[]
    if (now?.status !== "needs_attention" || now.reason !== reason) return
    await svc.updatePaynetEasyRecurringPayments({ ...before, next_check_at: before.next_check_at ? new Date(before.next_check_at) : null })
  }, { timeout: 30 })
}

/** Asks again about recurring payment `id` after RECHECK_MS (never in a tight loop); returns the previous next check. */
export async function scheduleRecheck(container: MedusaContainer, id: string, now: Date): Promise<Date | null> {
  const svc = service(container)
  const [row] = (await svc.listPaynetEasyRecurringPayments({ id }, { take: 1, select: ["id", "next_check_at"] })) as RecurringPaymentRow[]
  await svc.updatePaynetEasyRecurringPayments({ id, next_check_at: new Date(now.getTime() + RECHECK_MS) })
  return row?.next_check_at ? new Date(row.next_check_at) : null
}

export async function restoreNextCheck(container: MedusaContainer, id: string, previous: Date | string | null): Promise<void> {
  await service(container).updatePaynetEasyRecurringPayments({ id, next_check_at: previous ? new Date(previous) : null })
}

/**
 * Reconciliation of recurring charges whose callback never came (issue 14: the gateway charged the card, every
 * callback attempt was lost, so no renewal order was made). Run by the `payneteasy-reconcile-recurring` job.
 *
 * For an active (or past-due) recurring payment whose `next_charge_at` has passed (and whose own `next_check_at` has come), STATUS
 * is asked for the charge we expect next: `<row id>-c<n>`, n = the highest charge number recorded + 1 (then any lower
 * number never recorded), the form callbacks carry (README "Recurring payments", callbacks/order-kinds.ts). When STATUS
 * names that charge, it goes through processRecurringCharge — the callback's own code path, lock and de-duplication
 * (one charge row per gateway order), so a callback arriving later finds it recorded and makes no second order.
 * When the gateway knows none of them: asked again after RECHECK_MS, and once the charge is more than
 * OVERDUE_GRACE_MS late the recurring payment becomes `needs_attention` with the reason (shown in the admin list),
 * never silently; a charge arriving later clears that flag (charge-callback.ts).
 * Bounded work per tick: at most LIMIT recurring payments, MAX_ASKS STATUS calls each; a tick lock keeps instances apart.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { scrub } from "../../../gateway/scrub"
import { isNotFound } from "../../../gateway-adapter"
import { cardsClient } from "../../../gateway-adapter/cards-config"
import type { RecurringPaymentRow } from "../../../modules/payneteasy/service"
import { expectedChargeIds } from "../../../recurring/charge-ids"
import { OVERDUE_REASON_PREFIX, processRecurringCharge } from "./charge-callback"
import { underTickLock } from "../tick-lock"
import { service } from "./create-from-order"

export const RECURRING_TICK_LOCK = "payneteasy:recurring:tick"
const LIMIT = 10
const MAX_ASKS = 3
/** How long an overdue recurring payment waits before the gateway is asked again. */
export const RECHECK_MS = 10 * 60_000
/** How late a charge may be (the gateway's schedule runs on its own clock) before a person is asked to look. */
export const OVERDUE_GRACE_MS = 48 * 3_600_000

export type RecurringReconcileReport = { skipped: boolean; checked: number; found: number; flagged: number; errors: number }

type One = "found" | "waiting" | "flagged"

async function reconcileOne(container: MedusaContainer, rp: RecurringPaymentRow, now: Date): Promise<One> {
  const svc = service(container)
  const charges = (await svc.listPaynetEasyRecurringCharges({ recurring_payment_row_id: rp.id }, { select: ["client_orderid"] })) as Array<{ client_orderid: string }>
  const asked = expectedChargeIds(rp.id, charges.map((c) => c.client_orderid), MAX_ASKS)
  const client = cardsClient(container, rp.provider_id!)
  for (const clientOrderId of asked) {
    let status
    try {
      status = await client.request("STATUS", { client_orderid: clientOrderId })
    } catch (e) {
      if (isNotFound(e)) continue
      throw e
    }
    const orderid = status["paynet-order-id"]
    if (!orderid) continue
    const result = await processRecurringCharge(container, { client_orderid: clientOrderId, orderid, amount: status.amount ?? null, currency: status.currency ?? null })
    container.resolve(ContainerRegistrationKeys.LOGGER).info(`PaynetEasy: recurring charge ${orderid} of ${rp.id} found by reconciliation (its callback never came): ${result.outcome}, ${scrub(result.detail)}`)
    // not final yet, or recorded but not moving the schedule on (already known): ask again later, never in a tight loop
    await svc.updatePaynetEasyRecurringPayments({ id: rp.id, next_check_at: new Date(now.getTime() + RECHECK_MS) })
    return "found"
  }
  const due = new Date(rp.next_charge_at!)
  if (now.getTime() - due.getTime() <= OVERDUE_GRACE_MS) {
    await svc.updatePaynetEasyRecurringPayments({ id: rp.id, next_check_at: new Date(now.getTime() + RECHECK_MS) })
    return "waiting"
  }
  const reason = `${OVERDUE_REASON_PREFIX} for recurring payment ${rp.recurring_payment_id}: the charge due ${due.toISOString()} is more than ` +
    `${OVERDUE_GRACE_MS / 3_600_000} h late and STATUS knows none of ${asked.join(", ")}; a person must check it in the PaynetEasy merchant portal`
  const flagged = await container.resolve(Modules.LOCKING).execute(`payneteasy:recurring:${rp.id}`, async () => {
    const [fresh] = (await svc.listPaynetEasyRecurringPayments({ id: rp.id }, { take: 1 })) as RecurringPaymentRow[]
    // a callback may have come meanwhile: it moved next_charge_at on
    if ((fresh?.status !== "active" && fresh?.status !== "past_due") || !fresh.next_charge_at || new Date(fresh.next_charge_at).getTime() > now.getTime()) return false
    await svc.updatePaynetEasyRecurringPayments({ id: rp.id, status: "needs_attention", reason, next_check_at: null })
    return true
  }, { timeout: 30 })
  if (!flagged) return "waiting"
  container.resolve(ContainerRegistrationKeys.LOGGER).warn(`PaynetEasy: recurring payment ${rp.id} needs attention: ${reason}`)
  return "flagged"
}

export async function reconcileRecurringCharges(container: MedusaContainer, options: { now?: () => Date } = {}): Promise<RecurringReconcileReport> {
  const now = options.now ?? (() => new Date())
  const report: RecurringReconcileReport = { skipped: false, checked: 0, found: 0, flagged: 0, errors: 0 }
  const done = await underTickLock(container, RECURRING_TICK_LOCK, async () => {
    const at = now()
    const due = (await service(container).listPaynetEasyRecurringPayments(
      { status: ["active", "past_due"], recurring_payment_id: { $ne: null }, next_charge_at: { $lte: at }, $or: [{ next_check_at: null }, { next_check_at: { $lte: at } }] },
      { take: LIMIT, order: { next_charge_at: "ASC" } }
    )) as RecurringPaymentRow[]
    for (const rp of due) {
      if (!rp.provider_id) continue
      report.checked++
      try {
        const one = await reconcileOne(container, rp, now())
        if (one === "found") report.found++
        if (one === "flagged") report.flagged++
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

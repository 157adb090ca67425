/**
 * The attention queue's items that come from subscriptions, payouts and stalled reconciliation (issue 35): the owner's
 * inbox must list every problem, not only the callback log's. Each reader maps plugin rows (never edited here) to
 * items; attention.ts merges them with the callback and reconciliation items, and "handled" works on them the same way.
 * - `renewal_declined`: a subscription the gateway declined a renewal of (`past_due`); the item is the declined
 *   charge, so a later decline after an approved charge is a new item;
 * - `subscription_not_set_up`: a subscription order whose recurring payment was never made (a guest's order, no key,
 *   refused by the gateway, or the set-up's outcome unknown), with the retry route when the set-up may be retried;
 * - `renewal_not_reported`: a set-up subscription whose charge is overdue and unknown to the gateway;
 * - `payment_unresolved`: a payment still without a final gateway status past the reconciliation window (its watch
 *   should have been flagged by then: the reconciliation job is not running or keeps failing);
 * - `payout_awaiting_confirmation`: a two-step payout the gateway approved the check of, waiting for a person.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { GIVE_UP_AFTER_MS } from "../reconciliation/backoff"
import { DECLINED_STATUSES } from "../../gateway/statuses"
import { PAYNETEASY_MODULE } from "../../modules/payneteasy"
import type { ReconciliationRow, RecurringChargeRow, RecurringPaymentRow } from "../../modules/payneteasy/service"
import type { PayoutRow } from "../payouts/payout-state"
import type { AttentionItem } from "./attention-item"

type Svc = Record<string, (filters: Record<string, unknown>, config?: Record<string, unknown>) => Promise<unknown[]>>

const iso = (d: Date | string | null | undefined) => new Date(d ?? Date.now()).toISOString()

const item = (fields: Partial<AttentionItem> & Pick<AttentionItem, "id" | "kind" | "title" | "what_to_do" | "occurred_at">): AttentionItem => ({
  detail: null, session_id: null, orderid: null, client_orderid: null, amount: null, currency: null, order_id: null,
  payout_id: null, retry: null, retry_charge: null, deadline: null, reason_code: null, handled: null, ...fields,
})

function pastDue(rp: RecurringPaymentRow, charge: RecurringChargeRow | undefined): AttentionItem {
  // "Retry the charge" (core/recurring/retry-charge.ts): make-rebill on the subscription's own card reference
  const chargeable = !!rp.card_ref_id && !!rp.provider_id
  return item({
    id: charge?.id ?? rp.id,
    kind: "renewal_declined",
    title: `Subscription past due: the renewal of ${rp.amount} ${rp.currency_code} was declined`,
    what_to_do: chargeable
      ? `The customer's card was not charged for this period. Retry the charge now (the same card, once), or ask the customer to pay or to use another card; the gateway also tries the same card again on its schedule${rp.next_charge_at ? ` (${iso(rp.next_charge_at).slice(0, 10)})` : ""}, and an approved charge makes the subscription active again. Cancel it from the order page if it should end.`
      : `The customer's card was not charged for this period, and the gateway holds no card this plugin can charge again, so it cannot be retried from here: ask the customer to pay or to buy the subscription again with another card. Cancel it from the order page if it should end.`,
    detail: rp.reason,
    orderid: charge?.gateway_order_id ?? null,
    amount: rp.amount,
    currency: rp.currency_code,
    order_id: rp.order_id,
    retry_charge: chargeable
      ? { url: `/admin/payneteasy/recurring-payments/${rp.id}/retry-charge`, amount: rp.amount, currency: rp.currency_code,
          card: rp.card_last4 ? { brand: rp.card_brand, last4: rp.card_last4 } : null }
      : null,
    occurred_at: iso(charge?.charged_at ?? rp.updated_at),
  })
}

function notSetUp(rp: RecurringPaymentRow): AttentionItem {
  const overdue = rp.status === "needs_attention" && !!rp.recurring_payment_id
  if (overdue) {
    return item({
      id: rp.id,
      kind: "renewal_not_reported",
      title: `No renewal reported for subscription ${rp.amount} ${rp.currency_code} (gateway recurring payment ${rp.recurring_payment_id})`,
      what_to_do: "The gateway reported no charge for a renewal that is overdue. Look the recurring payment up in the PaynetEasy merchant portal: if it charged, the order follows when its callback or reconciliation arrives; if it stopped, cancel the subscription here and tell the customer.",
      detail: rp.reason,
      orderid: rp.recurring_payment_id,
      amount: rp.amount,
      currency: rp.currency_code,
      order_id: rp.order_id,
      occurred_at: iso(rp.updated_at),
    })
  }
  const retryable = rp.status === "needs_attention"
  return item({
    id: rp.id,
    kind: "subscription_not_set_up",
    title: `Subscription of ${rp.amount} ${rp.currency_code} every ${rp.interval > 1 ? `${rp.interval} ${rp.period}s` : rp.period} was not set up`,
    what_to_do: retryable
      ? "Whether the gateway made the recurring payment is not known. Retry the set-up: the gateway is asked first, so it is never made twice."
      : rp.status === "failed"
        ? "The gateway refused to set it up (the detail says why). Fix the cause, then ask the customer to buy the subscription again; the first order was paid."
        : "The first order was paid, but no renewal will be charged (the detail says why). Ask the customer to register and buy the subscription again, or charge renewals by hand.",
    detail: rp.reason,
    amount: rp.amount,
    currency: rp.currency_code,
    order_id: rp.order_id,
    retry: retryable ? `/admin/payneteasy/recurring-payments/${rp.id}/retry` : null,
    occurred_at: iso(rp.updated_at),
  })
}

function unresolved(w: ReconciliationRow): AttentionItem {
  return item({
    id: w.id,
    kind: "payment_unresolved",
    title: `Payment of session ${w.session_id} still unresolved after ${Math.round(GIVE_UP_AFTER_MS / 60_000)} minutes`,
    what_to_do:
      "The gateway has given no final status and reconciliation has not finished with it (is the payneteasy-reconcile job running?). Check the payment at the gateway (order page → Check at the gateway now) or in the PaynetEasy back office; the shopper was told the payment is being confirmed.",
    detail: w.last_status ? `last gateway status: ${w.last_status}${w.note ? `; ${w.note}` : ""}` : w.note,
    session_id: w.session_id,
    occurred_at: iso(w.started_at),
  })
}

function awaitingConfirmation(p: PayoutRow): AttentionItem {
  return item({
    id: p.id,
    kind: "payout_awaiting_confirmation",
    title: `Payout of ${p.amount} ${p.currency_code} checked by the gateway, waiting for confirmation`,
    what_to_do: "The gateway approved the payout check; nothing is paid until someone confirms it. Open the payout and confirm it, or leave it unconfirmed if it should not be paid.",
    detail: [p.recipient, p.destination_summary].filter(Boolean).join(" · ") || null,
    orderid: p.gateway_order_id,
    client_orderid: p.client_orderid,
    amount: p.amount,
    currency: p.currency_code,
    payout_id: p.id,
    occurred_at: iso(p.created_at),
  })
}

/** The items above, read from bounded lists of the plugin's rows. */
export async function moreAttentionItems(container: MedusaContainer, maxRows: number, now: Date = new Date()): Promise<AttentionItem[]> {
  const svc = container.resolve(PAYNETEASY_MODULE) as unknown as Svc
  const [subs, stalled, payouts] = await Promise.all([
    svc.listPaynetEasyRecurringPayments({ status: ["past_due", "not_set_up", "failed", "needs_attention"] }, { take: maxRows, order: { updated_at: "DESC" } }) as Promise<RecurringPaymentRow[]>,
    svc.listPaynetEasyReconciliations({ state: "pending", started_at: { $lt: new Date(now.getTime() - GIVE_UP_AFTER_MS) } }, { take: maxRows, order: { started_at: "DESC" } }) as Promise<ReconciliationRow[]>,
    svc.listPaynetEasyPayouts({ status: "checked" }, { take: maxRows, order: { updated_at: "DESC" } }) as Promise<PayoutRow[]>,
  ])
  const due = subs.filter((s) => s.status === "past_due")
  const charges = due.length
    ? ((await svc.listPaynetEasyRecurringCharges(
        { recurring_payment_row_id: due.map((s) => s.id), status: [...DECLINED_STATUSES] },
        { order: { charged_at: "DESC" }, take: maxRows }
      )) as RecurringChargeRow[])
    : []
  const latestDecline = new Map<string, RecurringChargeRow>()
  for (const c of charges) if (!latestDecline.has(c.recurring_payment_row_id)) latestDecline.set(c.recurring_payment_row_id, c)
  return [
    ...due.map((s) => pastDue(s, latestDecline.get(s.id))),
    ...subs.filter((s) => s.status !== "past_due").map(notSetUp),
    ...stalled.map(unresolved),
    ...payouts.map(awaitingConfirmation),
  ]
}

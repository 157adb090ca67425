/**
 * A recurring payment (subscription) created at the gateway for a subscription order: one row per (order, schedule).
 *
 * Exactly once: `(order_id, period, interval)` is unique, so a second `order.placed` delivery, a retried subscriber or
 * a second server instance finds the first one's row instead of creating another; the row is written before the
 * gateway is asked (status `pending`) and its id is the create request's `client-orderid`, which is how a lost reply
 * is resolved (STATUS by client-orderid) without ever creating a second subscription at the gateway.
 *
 * - pending: row written, the gateway is being asked (or the process died while asking: the subscriber's retry resolves it);
 * - active: the gateway holds the recurring payment (`recurring_payment_id`) and charges on schedule;
 * - not_set_up: nothing was created and nothing will be, with the reason (guest order, no private key, no card);
 * - failed: the gateway refused the request (reason = its message);
 * - past_due: the gateway declined a renewal charge (reason = its message); the gateway's schedule still runs and
 *   tries again on `next_charge_at`, an approved charge makes it `active` again; listed in the attention queue;
 * - needs_attention: the reply was lost and STATUS could not tell whether it exists, or a charge is overdue past the
 *   grace period and the gateway reports none (reconciliation): a person must check the gateway;
 * - cancelled: cancelled in the admin; `gateway_cancel` says what the gateway's schedule did (workflows/payneteasy/
 *   recurring/cancel.ts): `pending` (the stop request is being sent, or the process died while sending it), `stopped`
 *   (the gateway confirmed: finish date today), `refused` (the gateway refused, `gateway_cancel_reason` says why: stop
 *   it in the merchant portal), `unknown` (the reply was lost and STATUS could not tell: a person checks; cancelling
 *   again asks STATUS first). Null for a row cancelled before the gateway was asked, or with nothing at the gateway.
 *
 * `card_ref_id` never leaves the backend (admin routes show brand / last four only). `items` are the subscription
 * lines a renewal order repeats; `amount` is exact major units of `currency_code` (what each charge takes).
 */
import { model } from "@medusajs/framework/utils"

export const RECURRING_PERIODS = ["day", "week", "month", "year"] as const
export const RECURRING_STATUSES = ["pending", "active", "not_set_up", "failed", "needs_attention", "past_due", "cancelled"] as const
export const GATEWAY_CANCEL_STATES = ["pending", "stopped", "refused", "unknown"] as const

export const PaynetEasyRecurringPayment = model
  .define("payneteasy_recurring_payment", {
    id: model.id({ prefix: "pnerp" }).primaryKey(),
    order_id: model.text(),
    customer_id: model.text().nullable(),
    provider_id: model.text().nullable(),
    status: model.enum([...RECURRING_STATUSES]).default("pending"),
    reason: model.text().nullable(),
    period: model.enum([...RECURRING_PERIODS]),
    interval: model.number(),
    amount: model.text(),
    currency_code: model.text(),
    recurring_payment_id: model.text().nullable(),
    card_ref_id: model.text().nullable(),
    card_brand: model.text().nullable(),
    card_last4: model.text().nullable(),
    items: model.json(),
    includes_shipping: model.boolean().default(false),
    /** create-recurring-payment requests sent for this row: above 0 a retry asks STATUS before sending again. */
    attempts: model.number().default(0),
    next_charge_at: model.dateTime().nullable(),
    /** When reconciliation may next ask the gateway about an overdue charge (recurring/reconcile-charges.ts). */
    next_check_at: model.dateTime().nullable(),
    cancelled_at: model.dateTime().nullable(),
    cancelled_by: model.text().nullable(),
    gateway_cancel: model.enum([...GATEWAY_CANCEL_STATES]).nullable(),
    gateway_cancel_reason: model.text().nullable(),
  })
  .indexes([
    { name: "IDX_payneteasy_recurring_payment_schedule_unique", on: ["order_id", "period", "interval"], unique: true },
    { name: "IDX_payneteasy_recurring_payment_customer", on: ["customer_id"] },
    { name: "IDX_payneteasy_recurring_payment_gateway_id", on: ["recurring_payment_id"] },
  ])

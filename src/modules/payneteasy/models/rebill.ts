/**
 * One merchant-initiated charge of a saved card for an order's outstanding amount (admin rebill), the record that makes
 * it happen once: a double click, a retried request or two admins at once carry the same `idempotency_key` (order,
 * order version, card, requested amount) and get this row back instead of a second charge. Only a `failed` row lets
 * the same key be tried again. `pending` means a charge was started and its outcome is not recorded yet: an order has
 * at most one such row (whatever amount or card it names), so no second rebill starts while one may have charged.
 *
 * A past-due subscription's "Retry the charge" (core/recurring/retry-charge.ts) uses the same record and the same
 * order lock: `recurring_payment_id` names the subscription, `order_id` its first order, `card_id` is null (the
 * subscription's own card reference is charged, not a saved card), `client_orderid` (`<subscription id>-r<n>`) is the
 * make-rebill's client_orderid, one per retry attempt, and `gateway_order_id` the gateway's order once known.
 */
import { model } from "@medusajs/framework/utils"

export const REBILL_STATES = ["pending", "succeeded", "failed"] as const

export const PaynetEasyRebill = model
  .define("payneteasy_rebill", {
    id: model.id({ prefix: "pnerb" }).primaryKey(),
    order_id: model.text(),
    card_id: model.text().nullable(),
    customer_id: model.text(),
    idempotency_key: model.text(),
    /** major units, decimal string (exact); currency lower-case ISO 4217 as Medusa writes it */
    amount: model.text(),
    currency_code: model.text(),
    state: model.enum([...REBILL_STATES]).default("pending"),
    payment_collection_id: model.text().nullable(),
    session_id: model.text().nullable(),
    payment_id: model.text().nullable(),
    gateway_status: model.text().nullable(),
    error_message: model.text().nullable(),
    /** the Medusa user id of the admin who asked */
    requested_by: model.text().nullable(),
    /** a subscription's retried renewal charge: the recurring payment row (pnerp_…); null for an order rebill */
    recurring_payment_id: model.text().nullable(),
    /** a retried renewal charge's make-rebill client_orderid (`<pnerp id>-r<n>`) */
    client_orderid: model.text().nullable(),
    gateway_order_id: model.text().nullable(),
  })
  .indexes([
    { name: "IDX_payneteasy_rebill_order", on: ["order_id"] },
    { name: "IDX_payneteasy_rebill_recurring_payment", on: ["recurring_payment_id"] },
    { name: "IDX_payneteasy_rebill_key_unique", on: ["idempotency_key"], unique: true, where: "state <> 'failed' AND deleted_at IS NULL" },
    { name: "IDX_payneteasy_rebill_one_pending_per_order", on: ["order_id"], unique: true, where: "state = 'pending' AND deleted_at IS NULL" },
  ])

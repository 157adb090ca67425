/**
 * One charge the gateway made for a recurring payment (the history shown in the admin), from its callback.
 *
 * `(recurring_payment_row_id, gateway_order_id)` is unique: a redelivered callback finds the row instead of making a
 * second renewal. status: approved (a renewal order is created: `renewal_order_id`), declined / error / filtered
 * (recorded, the `payneteasy.recurring_payment.charge_failed` event emitted), or `unmatched` when the charge arrived
 * for a cancelled recurring payment (money taken after a cancel: a person must refund it).
 */
import { model } from "@medusajs/framework/utils"

export const PaynetEasyRecurringCharge = model
  .define("payneteasy_recurring_charge", {
    id: model.id({ prefix: "pnerpc" }).primaryKey(),
    recurring_payment_row_id: model.text(),
    gateway_order_id: model.text(),
    client_orderid: model.text(),
    status: model.text(),
    amount: model.text(),
    currency_code: model.text(),
    error_code: model.text().nullable(),
    error_message: model.text().nullable(),
    renewal_order_id: model.text().nullable(),
    /** One-time secret naming this charge to the provider when its renewal payment is recorded (never shown). */
    payment_token: model.text().nullable(),
    note: model.text().nullable(),
    charged_at: model.dateTime(),
  })
  .indexes([
    { name: "IDX_payneteasy_recurring_charge_unique", on: ["recurring_payment_row_id", "gateway_order_id"], unique: true },
  ])

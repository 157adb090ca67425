/**
 * What the admin sees of a recurring payment (the fixed shape of issue 14) and its charges. Never the card-ref-id nor a
 * charge's payment token: the card is brand and last four only.
 */
import type { RecurringChargeRow, RecurringPaymentRow } from "../../modules/payneteasy/service"

export function chargeView(c: RecurringChargeRow) {
  return {
    id: c.id, gateway_order_id: c.gateway_order_id, status: c.status, amount: c.amount, currency_code: c.currency_code,
    error_code: c.error_code, error_message: c.error_message, renewal_order_id: c.renewal_order_id, note: c.note, charged_at: c.charged_at,
  }
}

export function recurringPaymentView(r: RecurringPaymentRow, charges: RecurringChargeRow[]) {
  return {
    id: r.id, order_id: r.order_id, customer_id: r.customer_id, recurring_payment_id: r.recurring_payment_id, amount: r.amount,
    currency_code: r.currency_code, period: r.period, interval: r.interval, status: r.status, reason: r.reason,
    card: r.card_last4 ? { brand: r.card_brand, last4: r.card_last4 } : null, next_charge_at: r.next_charge_at,
    created_at: r.created_at, cancelled_at: r.cancelled_at, cancelled_by: r.cancelled_by,
    gateway_cancel: r.gateway_cancel, gateway_cancel_reason: r.gateway_cancel_reason,
    charges: charges.filter((c) => c.recurring_payment_row_id === r.id).map(chargeView),
  }
}

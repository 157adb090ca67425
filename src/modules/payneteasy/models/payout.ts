/**
 * A payout: money the shop sends out through PaynetEasy (single-step v2 payout, two-step v4 payout-check then
 * payout-pay, or the hosted payout form where the recipient enters the destination).
 *
 * Only a masked destination summary is kept (`444455******1111`, `Bank / Branch / ****5001`): the full card or
 * account number is sent to the gateway and never stored. `amount` is the exact major-unit decimal string,
 * normalised to the currency's ISO 4217 exponent ("25.00" EUR, "1000" JPY).
 *
 * Idempotency: `idempotency_key` (the create request's Idempotency-Key header) and `confirm_idempotency_key` are
 * unique, so a retried or concurrent request finds the first one's payout instead of making a second.
 * `client_orderid` (the payout id) is unique too: it is how a lost reply is resolved by STATUS.
 */
import { model } from "@medusajs/framework/utils"

export const PAYOUT_METHODS = ["single", "two_step", "form"] as const
export const DESTINATION_TYPES = ["card", "saved_card", "bank", "wallet", "phone"] as const
/**
 * - pending: recorded, request being sent, or its reply was lost and STATUS has not answered yet;
 * - eligibility_checking: a card payout waits for PAN eligibility (core/payouts/eligibility.ts) before its request;
 * - ineligible: the card cannot receive money (PAN eligibility said so): no payout request was sent;
 * - form_issued: hosted form address given out, waiting for the recipient;
 * - checking / checked / check_declined: two-step payout-check processing / approved (confirm allowed) / not approved;
 * - processing: the payout (single, form after the recipient's entry, or two-step pay) is at the gateway;
 * - approved / declined / error / filtered: the gateway's final answer;
 * - failed: nothing was paid (the gateway refused the request, or never received it).
 */
export const PAYOUT_STATUSES = [
  "pending", "form_issued", "checking", "checked", "check_declined", "processing",
  "approved", "declined", "error", "filtered", "failed", "eligibility_checking", "ineligible",
] as const

/** What PAN eligibility said for a card payout: null when not asked (not a card, the form, or the option is off). */
export const ELIGIBILITY_STATES = ["checking", "eligible", "ineligible", "skipped"] as const

export const PaynetEasyPayout = model
  .define("payneteasy_payout", {
    id: model.id({ prefix: "pnepo" }).primaryKey(),
    provider_id: model.text(),
    method: model.enum([...PAYOUT_METHODS]),
    status: model.enum([...PAYOUT_STATUSES]).default("pending"),
    amount: model.text(),
    currency_code: model.text(),
    destination_type: model.enum([...DESTINATION_TYPES]).nullable(),
    destination_summary: model.text().nullable(),
    recipient: model.text().nullable(),
    purpose: model.text().nullable(),
    client_orderid: model.text(),
    gateway_order_id: model.text().nullable(),
    check_serial: model.text().nullable(),
    pay_serial: model.text().nullable(),
    form_url: model.text().nullable(),
    error_code: model.text().nullable(),
    error_message: model.text().nullable(),
    idempotency_key: model.text(),
    request_hash: model.text(),
    confirm_idempotency_key: model.text().nullable(),
    created_by: model.text().nullable(),
    confirmed_by: model.text().nullable(),
    confirmed_at: model.dateTime().nullable(),
    finished_at: model.dateTime().nullable(),
    next_check_at: model.dateTime().nullable(),
    checks: model.number().default(0),
    eligibility: model.enum([...ELIGIBILITY_STATES]).nullable(),
    /** the saved card a saved-card payout goes to (its reference is read from the card row when sent) */
    saved_card_id: model.text().nullable(),
  })
  .indexes([
    { name: "IDX_payneteasy_payout_idempotency_key_unique", on: ["idempotency_key"], unique: true },
    { name: "IDX_payneteasy_payout_confirm_key_unique", on: ["confirm_idempotency_key"], unique: true },
    { name: "IDX_payneteasy_payout_client_orderid_unique", on: ["client_orderid"], unique: true },
    { name: "IDX_payneteasy_payout_status", on: ["status", "next_check_at"] },
  ])

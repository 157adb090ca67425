/**
 * The one table of status labels: every status the server can return, per kind of thing, with the badge colour
 * Medusa's own dashboard uses for the same meaning (green done, orange waiting or needs a person, red failed, blue in
 * progress, grey closed or neutral). The words are the i18n keys `payneteasy.status.<group>.<value>` (i18n/en.ts).
 * The value lists come from the server's own types, so a status added there fails the type check here until it has
 * a colour and a label.
 */
import type { PaymentSessionStatus } from "@medusajs/framework/utils"
import type { GATEWAY_STATUSES } from "../../gateway/operations"
import type { PAYOUT_STATUSES, PAYOUT_METHODS, DESTINATION_TYPES } from "../../modules/payneteasy/models/payout"
import type { CALLBACK_OUTCOMES, CALLBACK_SOURCES } from "../../modules/payneteasy/models/callback-log"
import type { RECONCILIATION_STATES } from "../../modules/payneteasy/models/reconciliation"
import type { GATEWAY_CANCEL_STATES, RECURRING_STATUSES } from "../../modules/payneteasy/models/recurring-payment"
import type { REBILL_STATES } from "../../modules/payneteasy/models/rebill"
import { en } from "../i18n/en"
import type { ACTIVITY_KINDS, ACTIVITY_ORIGINS, PAYMENT_KINDS, THREE_DS_STATES } from "../../core/dashboard/order-money"
import type { ATTENTION_KINDS } from "../../core/dashboard/attention-item"

export type BadgeColor = "green" | "red" | "orange" | "blue" | "grey" | "purple"

export type StatusValues = {
  gateway: (typeof GATEWAY_STATUSES)[number]
  session: `${PaymentSessionStatus}`
  payout: (typeof PAYOUT_STATUSES)[number]
  payoutMethod: (typeof PAYOUT_METHODS)[number]
  destination: (typeof DESTINATION_TYPES)[number]
  callbackSource: (typeof CALLBACK_SOURCES)[number]
  callbackOutcome: (typeof CALLBACK_OUTCOMES)[number]
  reconciliation: (typeof RECONCILIATION_STATES)[number]
  recurring: (typeof RECURRING_STATUSES)[number]
  recurringCancel: (typeof GATEWAY_CANCEL_STATES)[number]
  recurringCharge: (typeof GATEWAY_STATUSES)[number] | "unmatched"
  rebill: (typeof REBILL_STATES)[number]
  paymentKind: (typeof PAYMENT_KINDS)[number]
  threeDs: (typeof THREE_DS_STATES)[number]
  activity: (typeof ACTIVITY_KINDS)[number]
  origin: (typeof ACTIVITY_ORIGINS)[number]
  attentionKind: (typeof ATTENTION_KINDS)[number]
}
export type StatusGroup = keyof StatusValues

const GATEWAY: Record<StatusValues["gateway"], BadgeColor> = {
  approved: "green", declined: "red", error: "red", filtered: "red", processing: "blue", unknown: "orange", chain_declined: "red", other: "orange",
}

export const STATUS_COLORS: { [G in StatusGroup]: Record<StatusValues[G], BadgeColor> } = {
  gateway: GATEWAY,
  session: { pending: "orange", pending_authorization: "orange", authorized: "orange", captured: "green", requires_more: "orange", error: "red", canceled: "grey" },
  payout: {
    pending: "grey", form_issued: "blue", checking: "blue", checked: "orange", check_declined: "red", processing: "blue",
    approved: "green", declined: "red", error: "red", filtered: "red", failed: "red", eligibility_checking: "blue", ineligible: "red",
  },
  payoutMethod: { single: "grey", two_step: "grey", form: "grey" },
  destination: { card: "grey", saved_card: "grey", bank: "grey", wallet: "grey", phone: "grey" },
  callbackSource: { callback: "grey", return: "grey", reconcile: "grey" },
  callbackOutcome: { received: "blue", processed: "green", ignored: "grey", failed: "red", flagged: "orange" },
  reconciliation: { pending: "blue", final: "green", flagged: "orange" },
  recurring: { pending: "blue", active: "green", not_set_up: "orange", failed: "red", needs_attention: "orange", past_due: "red", cancelled: "grey" },
  recurringCancel: { pending: "blue", stopped: "green", refused: "red", unknown: "orange" },
  recurringCharge: { ...GATEWAY, unmatched: "orange" },
  rebill: { pending: "blue", succeeded: "green", failed: "red" },
  paymentKind: { hosted: "grey", direct: "grey", saved_card: "grey", rebill: "grey", renewal: "grey" },
  threeDs: { reported: "green", challenge_in_progress: "blue", challenge_completed: "green", hosted_page: "grey", no_challenge: "grey", not_applicable: "grey" },
  activity: {
    authorization: "grey", sale: "grey", capture: "grey", refund: "grey", release: "grey", chargeback: "red", second_chargeback: "red",
    retrieval_request: "orange", fraud_marker: "orange", chargeback_reversal: "green", other: "orange",
  },
  origin: { checkout: "grey", dashboard: "blue", subscription: "grey", gateway: "orange" },
  attentionKind: {
    paid_without_order: "orange", chargeback: "red", second_chargeback: "red", retrieval_request: "orange", fraud_marker: "orange",
    chargeback_reversal: "green", reconciliation_gave_up: "orange", reply_mismatch: "orange", callback_failed: "red",
    recurring_not_stopped: "orange", renewal_declined: "red", subscription_not_set_up: "orange", renewal_not_reported: "orange",
    payment_unresolved: "orange", payout_awaiting_confirmation: "orange",
  },
}

/** The i18n key and colour of a status; a value the table does not know gets the group's "unrecognised" wording. */
export function statusLabel<G extends StatusGroup>(group: G, value: string | null | undefined): { key: string; color: BadgeColor; known: boolean } {
  const v = (value ?? "").trim().toLowerCase()
  const colors = STATUS_COLORS[group] as Record<string, BadgeColor>
  if (v && Object.prototype.hasOwnProperty.call(colors, v)) return { key: `payneteasy.status.${group}.${v}`, color: colors[v], known: true }
  return { key: "payneteasy.status.gateway.other", color: "orange", known: false }
}

// Every status has its English words (and through i18n/en.ts's Messages type, every other language too).
export const STATUS_WORDS: { [G in StatusGroup]: Record<StatusValues[G], string> } = en.payneteasy.status

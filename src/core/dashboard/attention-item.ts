/** One item of the attention queue (the owner's inbox), as GET /admin/payneteasy/attention answers it. */
export const ATTENTION_KINDS = [
  "paid_without_order", "chargeback", "second_chargeback", "retrieval_request", "fraud_marker", "chargeback_reversal", "reconciliation_gave_up", "callback_failed", "reply_mismatch", "recurring_not_stopped",
  "renewal_declined", "subscription_not_set_up", "renewal_not_reported", "payment_unresolved", "payout_awaiting_confirmation",
] as const
export type AttentionKind = (typeof ATTENTION_KINDS)[number]

export interface AttentionItem {
  id: string
  kind: AttentionKind
  title: string
  what_to_do: string
  detail: string | null
  session_id: string | null
  orderid: string | null
  client_orderid: string | null
  amount: string | null
  currency: string | null
  order_id: string | null
  /** The payout the item is about (payout_awaiting_confirmation). */
  payout_id: string | null
  /** The admin route that retries what failed, when the gateway allows a retry (POST, no body); else null. */
  retry: string | null
  /**
   * "Retry the charge" of a past-due subscription (renewal_declined) when the gateway holds a card to charge: the
   * route (POST, body {}), what it charges and where, for the confirmation; else null (the item says what to do).
   */
  retry_charge: { url: string; amount: string; currency: string; card: { brand: string | null; last4: string } | null } | null
  occurred_at: string
  /** by when a person must act (a dispute's deadline, core/disputes), ISO; null when the item has none */
  deadline: string | null
  /** a dispute's reason code, when the gateway gave one */
  reason_code: string | null
  handled: { by: string; by_email: string | null; at: string; note: string | null } | null
}

/**
 * The shapes the plugin's /admin/payneteasy/* routes answer (see src/api/admin/payneteasy). Declared here, not
 * imported from the server code: the admin bundle talks to the backend over HTTP only.
 */
export interface CallbackEntry {
  id: string
  source: "callback" | "return" | "reconcile"
  provider_id: string
  session_id: string | null
  orderid: string
  client_orderid: string
  type: string
  status: string
  amount: string | null
  currency: string | null
  error_code: string | null
  error_message: string | null
  outcome: "received" | "processed" | "ignored" | "failed" | "flagged"
  outcome_detail: string | null
  received_at: string
  processed_at: string | null
  params: Record<string, string>
}

export interface GatewayTransaction {
  serial_number: string | null
  transaction_type: string | null
  status: string
  amount: string | null
  currency: string | null
  reason: string | null
  checked_at: string
  checked_by: string | null
}

export interface LaterEvent {
  callback_id: string
  type: string
  status: string
  amount: string | null
  currency: string | null
  reason: string | null
  received_at: string
  confirmed: boolean
  outside_medusa: boolean
  warning: string | null
}

export interface SessionPanel {
  session_id: string
  provider_id: string
  session_status: string
  payment_id: string | null
  flow: string | null
  transaction_type: string | null
  client_orderid: string | null
  gateway_order_id: string | null
  amount: string | null
  currency: string | null
  gateway_status: string | null
  error: { code?: string; message: string } | null
  ledger: Array<{ kind: "capture" | "refund" | "void"; id: string; amount: string; status: string | null; pending: boolean; serial_number: string | null }>
  three_ds: { summary: string; fields: Record<string, string> }
  callbacks: CallbackEntry[]
  reconciliation: Array<{ target: string; state: string; checks: number; last_status: string | null; note: string | null; last_checked_at: string | null; next_check_at: string | null }>
  transactions: GatewayTransaction[]
  last_checked_at: string | null
  later_events: LaterEvent[]
}

export interface OrderPanel {
  order_id: string
  display_id: number | null
  is_payneteasy: boolean
  sessions: SessionPanel[]
  warnings: string[]
}

export interface AttentionItem {
  id: string
  kind:
    | "paid_without_order" | "chargeback" | "reconciliation_gave_up" | "callback_failed" | "reply_mismatch" | "recurring_not_stopped"
    | "renewal_declined" | "subscription_not_set_up" | "renewal_not_reported" | "payment_unresolved" | "payout_awaiting_confirmation"
  title: string
  what_to_do: string
  detail: string | null
  session_id: string | null
  orderid: string | null
  client_orderid: string | null
  amount: string | null
  currency: string | null
  order_id: string | null
  payout_id: string | null
  /** The admin route (POST) that retries what failed, when the gateway allows a retry. */
  retry: string | null
  occurred_at: string
  handled: { by: string; by_email: string | null; at: string; note: string | null } | null
}

export interface DoctorProvider {
  id: string
  base_url: string
  endpoint: { kind: "endpoint" | "group"; id: string } | null
  login_masked: string
  rsa_key_loaded: boolean
  rsa_key_bits: number | null
  flow: string | null
  capture: string | null
  problem: string | null
  check: { ok: boolean; verdict: string; message: string; gateway_message?: string; duration_ms: number }
}

export interface Page<T> {
  count: number
  limit: number
  offset: number
  items: T[]
}

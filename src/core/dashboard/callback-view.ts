/**
 * How a callback-log row is shown to an admin: its facts and what the plugin did with it, with the stored
 * parameters scrubbed once more on the way out (the log already stores them without control, PAN or CVV; this
 * also drops anything named like a secret or card field, so the browser never receives one).
 */
import { isSensitiveKey, scrub } from "../../gateway"
import type { CallbackRow } from "../../modules/payneteasy/service"

export interface CallbackView {
  id: string
  source: CallbackRow["source"]
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
  outcome: CallbackRow["outcome"]
  outcome_detail: string | null
  received_at: string
  processed_at: string | null
  params: Record<string, string>
}

const DROP = /^(control|signature|credit_card_number|card_number|cvv2?|pan|track|oauth_signature)$/i

export function safeParams(params: Record<string, unknown> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(params ?? {})) {
    if (DROP.test(k) || isSensitiveKey(k)) continue
    out[k] = scrub(typeof v === "string" ? v : JSON.stringify(v))
  }
  return out
}

export function callbackView(r: CallbackRow): CallbackView {
  return {
    id: r.id,
    source: r.source,
    provider_id: r.provider_id,
    session_id: r.session_id,
    orderid: r.orderid,
    client_orderid: r.client_orderid,
    type: r.type,
    status: r.status,
    amount: r.amount,
    currency: r.currency,
    error_code: r.error_code,
    error_message: r.error_message,
    outcome: r.outcome,
    outcome_detail: r.outcome_detail,
    received_at: new Date(r.received_at).toISOString(),
    processed_at: r.processed_at ? new Date(r.processed_at).toISOString() : null,
    params: safeParams(r.params),
  }
}

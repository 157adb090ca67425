/**
 * The attention queue: everything a person must act on, derived from the plugin's own records (never edited here):
 * - `paid_without_order`: a callback-log row `flagged` because the gateway approved a payment whose Medusa session
 *   no longer exists and whose callback does not prove it this store's own (those are given back by themselves:
 *   core/callbacks/orphaned-payment.ts), or a reconciliation watch flagged because a paid cart could not be completed for an hour;
 * - the disputes (issue 51) `chargeback`, `second_chargeback`, `retrieval_request`, `fraud_marker`,
 *   `chargeback_reversal`: a callback-log row of that type whose event STATUS confirmed (outcome `processed`; one
 *   item per gateway transaction, as a duplicate or forged callback is refuted and `ignored`), with what to do and the
 *   deadline (core/disputes/disputes.ts), the reason code the callback gave, dated when it was received;
 * - `reconciliation_gave_up`: any other watch reconciliation flagged (no final status after an hour, a follow-up
 *   the gateway declined later);
 * - `callback_failed`: a callback-log row whose processing failed (the reconciliation retries it for a day; it stays
 *   here until it succeeds or someone marks it handled);
 * - `recurring_not_stopped`: a recurring payment cancelled here whose schedule the gateway did not confirm stopped
 *   (refused, or a lost reply STATUS could not settle): it may still charge the customer;
 * - declined renewals (past due), subscriptions not set up, payments unresolved past the reconciliation window and
 *   payouts waiting for confirmation: attention-more-kinds.ts.
 * Each item says what to do. Marking one handled records who and when (payneteasy_attention_handled) and keeps the
 * item visible under `handled=true`. The lists read are bounded (MAX_SOURCE_ROWS each); pagination is over the
 * merged, newest-first list.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { userEmails } from "./users"
import { moreAttentionItems } from "./attention-more-kinds"
import type { AttentionItem } from "./attention-item"
import { REPLY_MISMATCH_NOTE } from "../checkout/reply-match"
import { isInitialTransactionType } from "../../gateway/statuses"
import { DISPUTE_TYPE_WORDS, disputeReasonCodeOf } from "../../gateway/disputes"
import { DISPUTE_RULES, disputeView } from "../disputes/disputes"
import { paynetEasyModule } from "../../modules/payneteasy"
import type { CallbackRow, ReconciliationRow, RecurringPaymentRow } from "../../modules/payneteasy/service"

export const MAX_SOURCE_ROWS = 1000
/** The callback log's dispute rows (every dispute spelling has one of these words: gateway/disputes.ts). */
const DISPUTE_FILTER = { $or: DISPUTE_TYPE_WORDS.map((w) => ({ type: { $ilike: `%${w}%` } })) }

export type { AttentionItem, AttentionKind } from "./attention-item"

const svc = (c: MedusaContainer) => paynetEasyModule(c)

export function fromCallback(r: CallbackRow): AttentionItem | undefined {
  const base = {
    id: r.id,
    detail: r.outcome_detail,
    session_id: r.session_id,
    orderid: r.orderid,
    client_orderid: r.client_orderid,
    amount: r.amount,
    currency: r.currency,
    order_id: null,
    payout_id: null,
    retry: null,
    retry_charge: null,
    deadline: null,
    reason_code: null,
    occurred_at: new Date(r.received_at).toISOString(),
    handled: null,
  }
  const dispute = disputeView(r.type, { reasonCode: disputeReasonCodeOf(r.params as Record<string, unknown>) ?? null, date: r.received_at })
  // only what STATUS confirmed; a refuted one (forged, or a duplicate of one recorded) stays in the callback log, one
  // whose processing failed is a callback_failed item below
  if (dispute && r.outcome === "processed") {
    const rule = DISPUTE_RULES[dispute.kind]
    const name = rule.name.charAt(0).toUpperCase() + rule.name.slice(1)
    return {
      ...base,
      kind: dispute.kind,
      title: `${name}${r.amount ? ` of ${r.amount} ${r.currency ?? ""}`.trimEnd() : ""}${dispute.reason_code ? ` (reason code ${dispute.reason_code})` : ""} on gateway order ${r.orderid}`,
      what_to_do: rule.whatToDo,
      deadline: dispute.deadline,
      reason_code: dispute.reason_code,
    }
  }
  if (r.outcome === "flagged" && r.status === "approved" && isInitialTransactionType(r.type)) {
    return {
      ...base,
      kind: "paid_without_order",
      title: `Approved ${r.type} with no order (gateway order ${r.orderid})`,
      what_to_do:
        "The shopper was charged but Medusa has no order for it (its payment session was deleted, e.g. after a cart change), and it was not given back by itself: nothing shows that this store registered it (an order from before this version, or another shop on the same PaynetEasy account), or Medusa recorded a payment for it (the callback log says which). Refund or void the payment in the PaynetEasy back office, or create the order by hand.",
    }
  }
  if (r.outcome === "flagged") {
    return {
      ...base,
      kind: "reconciliation_gave_up",
      title: `${r.type} ${r.status} on gateway order ${r.orderid} needs a person`,
      what_to_do: "Check the order in the PaynetEasy back office and bring Medusa in line by hand (the detail says what happened).",
    }
  }
  if (r.outcome === "failed") {
    return {
      ...base,
      kind: "callback_failed",
      title: `Callback ${r.type} ${r.status} for gateway order ${r.orderid} could not be processed`,
      what_to_do:
        "It is retried automatically for a day. If it keeps failing, read the detail, check the order at the gateway (order page → Check at the gateway now) and complete or refund it by hand.",
    }
  }
  return undefined
}

function fromWatch(w: ReconciliationRow): AttentionItem {
  if (w.note?.startsWith(REPLY_MISMATCH_NOTE)) {
    return {
      ...watchBase(w),
      kind: "reply_mismatch",
      title: `The gateway answered about another payment for session ${w.session_id}`,
      what_to_do:
        "Nothing was authorized from that reply. Look up this session's client order id in the PaynetEasy back office: if the shopper paid, complete or refund by hand; report the mixed-up reply to PaynetEasy support.",
    }
  }
  const paidNoOrder = /could not be completed|cart/i.test(w.note ?? "")
  return {
    kind: paidNoOrder ? "paid_without_order" : "reconciliation_gave_up",
    title: paidNoOrder
      ? `Paid, but the cart could not become an order (session ${w.session_id})`
      : `Reconciliation gave up on ${w.target ? w.target.replace(":", " ") : "the payment"} of session ${w.session_id}`,
    what_to_do: paidNoOrder
      ? "Complete the cart (fix what stops it, e.g. shipping) or refund the payment in the PaynetEasy back office."
      : "The gateway gave no final answer for an hour (or declined a follow-up later). Ask PaynetEasy support about the order, then bring Medusa in line by hand.",
    ...watchBase(w),
  }
}

function watchBase(w: ReconciliationRow) {
  return {
    id: w.id,
    detail: w.note,
    session_id: w.session_id,
    orderid: null,
    client_orderid: null,
    amount: null,
    currency: null,
    order_id: null,
    payout_id: null,
    retry: null,
    retry_charge: null,
    deadline: null,
    reason_code: null,
    occurred_at: new Date(w.last_checked_at ?? w.started_at).toISOString(),
    handled: null,
  }
}

function fromUnstoppedRecurring(r: RecurringPaymentRow): AttentionItem {
  return {
    id: r.id,
    kind: "recurring_not_stopped",
    title: `Cancelled subscription ${r.id} may still charge (gateway recurring payment ${r.recurring_payment_id})`,
    what_to_do: r.gateway_cancel === "refused"
      ? "The gateway refused to stop the schedule. Stop it in the PaynetEasy merchant portal (Orders → Recurring payments); refund any charge it still makes (they are flagged on the recurring payment)."
      : "Stopping the schedule could not be confirmed. Cancel it again from the order page (the gateway is asked by STATUS, nothing is sent twice), or check it in the PaynetEasy merchant portal.",
    detail: r.gateway_cancel_reason,
    session_id: null,
    orderid: r.recurring_payment_id,
    client_orderid: null,
    amount: r.amount,
    currency: r.currency_code,
    order_id: r.order_id,
    payout_id: null,
    retry: null,
    retry_charge: null,
    deadline: null,
    reason_code: null,
    occurred_at: new Date(r.cancelled_at ?? r.updated_at).toISOString(),
    handled: null,
  }
}

async function ordersBySession(container: MedusaContainer, sessionIds: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const unique = [...new Set(sessionIds)]
  if (!unique.length) return out
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: sessions } = await query.graph({ entity: "payment_session", fields: ["id", "payment_collection_id"], filters: { id: unique } })
  const byCollection = new Map((sessions as Array<{ id: string; payment_collection_id: string }>).map((s) => [s.payment_collection_id, s.id]))
  if (!byCollection.size) return out
  const { data: links } = await query.graph({
    entity: "order_payment_collection",
    fields: ["order_id", "payment_collection_id"],
    filters: { payment_collection_id: [...byCollection.keys()] },
  })
  for (const l of links as Array<{ order_id: string; payment_collection_id: string }>) {
    const sid = byCollection.get(l.payment_collection_id)
    if (sid) out.set(sid, l.order_id)
  }
  return out
}

/** All attention items (handled ones included), newest first. */
export async function attentionItems(container: MedusaContainer): Promise<AttentionItem[]> {
  const service = svc(container)
  const [callbacks, disputes, watches, unstopped, more] = await Promise.all([
    service.listPaynetEasyCallbacks({ outcome: ["flagged", "failed"] }, { order: { received_at: "DESC" }, take: MAX_SOURCE_ROWS }) as unknown as Promise<CallbackRow[]>,
    service.listPaynetEasyCallbacks(DISPUTE_FILTER as Record<string, unknown>, { order: { received_at: "DESC" }, take: MAX_SOURCE_ROWS }) as unknown as Promise<CallbackRow[]>,
    service.listPaynetEasyReconciliations({ state: "flagged" }, { order: { last_checked_at: "DESC" }, take: MAX_SOURCE_ROWS }) as unknown as Promise<ReconciliationRow[]>,
    service.listPaynetEasyRecurringPayments({ status: "cancelled", gateway_cancel: ["refused", "unknown"] } as Record<string, unknown>, { take: MAX_SOURCE_ROWS }) as unknown as Promise<RecurringPaymentRow[]>,
    moreAttentionItems(container, MAX_SOURCE_ROWS),
  ])
  const seen = new Set<string>()
  const items: AttentionItem[] = []
  for (const r of [...disputes, ...callbacks]) {
    if (seen.has(r.id)) continue
    seen.add(r.id)
    const item = fromCallback(r)
    if (item) items.push(item)
  }
  // A watch flagged for a ledger entry whose declined callback-log row is already listed says the same thing twice;
  // both are kept, as each has its own "handled".
  items.push(...watches.map(fromWatch), ...unstopped.map(fromUnstoppedRecurring), ...more)
  const orders = await ordersBySession(container, items.map((i) => i.session_id).filter((s): s is string => !!s))
  const handled = items.length
    ? ((await service.listPaynetEasyAttentionHandleds({ item_id: items.map((i) => i.id) }, { take: items.length })))
    : []
  const users = await userEmails(container, handled.map((h) => h.handled_by))
  const handledBy = new Map(handled.map((h) => [h.item_id, h]))
  for (const item of items) {
    if (item.session_id) item.order_id = orders.get(item.session_id) ?? null
    const h = handledBy.get(item.id)
    if (h) item.handled = { by: h.handled_by, by_email: users.get(h.handled_by) ?? null, at: new Date(h.handled_at).toISOString(), note: h.note ?? null }
  }
  return items.sort((a, b) => b.occurred_at.localeCompare(a.occurred_at))
}


/** Records "handled" once per item; a second call returns the first record. Undefined when no such item exists. */
export async function markHandled(container: MedusaContainer, itemId: string, actorId: string, note: string | undefined) {
  const item = (await attentionItems(container)).find((i) => i.id === itemId)
  if (!item) return undefined
  if (item.handled) return item
  const service = svc(container)
  try {
    await service.createPaynetEasyAttentionHandleds({ item_id: itemId, handled_by: actorId, handled_at: new Date(), note: note ?? null })
  } catch (e) {
    // Lost a race on the unique item_id index: someone else marked it at the same moment; theirs stands.
    const [again] = await service.listPaynetEasyAttentionHandleds({ item_id: itemId }, { take: 1 })
    if (!again) throw e
  }
  return (await attentionItems(container)).find((i) => i.id === itemId)
}

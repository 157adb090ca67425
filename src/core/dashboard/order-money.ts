/**
 * The order page's money summary and activity list, as pure functions of what the panel already read: how a payment
 * was made (hosted page, card in the shop, saved card, an admin's rebill, a subscription renewal), what is authorized,
 * captured, refunded, charged back and left to capture (exact: minor units as bigint, decimal strings out), and one
 * list of what happened — the checkout's authorization, the captures, refunds and release made in this shop (with
 * who and when, from Medusa's own Capture/Refund rows), and what only the gateway reported (chargebacks, changes made
 * in the PaynetEasy back office). A gateway report that matches one of the shop's own actions confirms that action;
 * it is not listed as a second event.
 */
import { fromMinorUnits, toMinorUnits } from "../../gateway/money"
import { isApproved, isFinal } from "../../gateway/statuses"
import type { SessionData } from "../checkout/session-data"
import { DISPUTE_KINDS, disputeKindOf, type DisputeKind } from "../../gateway/disputes"
import { disputeMoneyMinor, type DisputeView } from "../disputes/disputes"

/** How the money was taken: the payment's origin, which also decides what 3-D Secure can say. */
export const PAYMENT_KINDS = ["hosted", "direct", "saved_card", "rebill", "renewal"] as const
export type PaymentKind = (typeof PAYMENT_KINDS)[number]

/** What the panel can say about 3-D Secure for one payment. */
export const THREE_DS_STATES = ["reported", "challenge_in_progress", "challenge_completed", "hosted_page", "no_challenge", "not_applicable"] as const
export type ThreeDsState = (typeof THREE_DS_STATES)[number]

/** The disputes (chargeback, second chargeback, retrieval request, fraud marker, chargeback reversal) are each their own kind. */
export const ACTIVITY_KINDS = ["authorization", "sale", "capture", "refund", "release", ...DISPUTE_KINDS, "other"] as const
export type ActivityKind = (typeof ACTIVITY_KINDS)[number]
/** checkout: the shopper paid; dashboard: an admin of this shop did it; subscription: a renewal; gateway: only the gateway reported it. */
export const ACTIVITY_ORIGINS = ["checkout", "dashboard", "subscription", "gateway"] as const
export type ActivityOrigin = (typeof ACTIVITY_ORIGINS)[number]

export interface ActivityEntry {
  id: string
  kind: ActivityKind
  origin: ActivityOrigin
  amount: string | null
  currency: string | null
  /** the gateway's status of this transaction (a GATEWAY_STATUSES value, or null when not known yet) */
  status: string | null
  pending: boolean
  at: string | null
  /** the admin's e-mail when an admin did it */
  by: string | null
  /** a callback or STATUS answer of the gateway confirmed this action of the shop */
  confirmed_by_gateway: boolean
  /** the gateway's own word for the transaction, for the technical details */
  gateway_type: string | null
  warning: string | null
  /** a dispute's reason code, when the gateway gave one */
  reason_code: string | null
  /** a dispute's deadline (core/disputes), ISO */
  deadline: string | null
}

export interface MoneySummary {
  currency: string
  authorized: string
  captured: string
  refunded: string
  /** taken by chargebacks and second chargebacks, less what chargeback reversals gave back (net; exact) */
  charged_back: string
  left_to_capture: string
  /** captures and refunds sent whose outcome the gateway has not decided yet */
  pending: string
}

/** A later gateway event (panel's LaterEventView) as this file needs it. */
export interface GatewayEvent {
  callback_id: string
  type: string
  status: string
  amount: string | null
  currency: string | null
  received_at: string
  outside_medusa: boolean
  warning: string | null
  /** STATUS established it: the reconciliation's own STATUS call, or a callback STATUS confirmed (reflected on the order) */
  confirmed: boolean
  /** the dispute it is (kind, reason code, date, deadline), or null for any other later event */
  dispute: DisputeView | null
}

/** Medusa's Capture / Refund row: who and when, keyed by the ledger entry's id. */
export type MedusaMoneyRow = { id: string; created_at?: string | Date | null; created_by?: string | null }

export interface SessionMoneyInput {
  session_id: string
  data: SessionData | undefined
  kind: PaymentKind
  /** Medusa created a Payment for this session (it was authorized) */
  authorized: boolean
  authorized_at: string | null
  /** the admin who started a rebill (e-mail), when kind is rebill */
  started_by: string | null
  events: GatewayEvent[]
  medusa_rows: Map<string, MedusaMoneyRow>
  emails: Map<string, string>
}

const EVENT_KIND: Record<string, ActivityKind> = { capture: "capture", reversal: "refund", return: "refund", refund: "refund", cancel: "release", void: "release" }

export function eventKind(type: string): ActivityKind {
  const t = type.trim().toLowerCase()
  if (EVENT_KIND[t]) return EVENT_KIND[t]
  return disputeKindOf(t) ?? "other"
}

const isDisputeKind = (k: ActivityKind): k is DisputeKind => (DISPUTE_KINDS as readonly string[]).includes(k)

const iso = (d: unknown) => (d ? new Date(d as string).toISOString() : null)

function originOf(kind: PaymentKind): ActivityOrigin {
  return kind === "rebill" ? "dashboard" : kind === "renewal" ? "subscription" : "checkout"
}

export function activityOf(s: SessionMoneyInput): ActivityEntry[] {
  const d = s.data
  if (!d) return []
  const out: ActivityEntry[] = []
  if (d.orderId || d.gatewayStatus) {
    out.push({
      id: `${s.session_id}:initial`,
      kind: d.transactionType === "sale" ? "sale" : "authorization",
      origin: originOf(s.kind),
      amount: d.amount,
      currency: d.currency,
      status: d.gatewayStatus ?? null,
      pending: !!d.gatewayStatus && !isFinal(d.gatewayStatus),
      at: s.authorized_at,
      by: s.kind === "rebill" ? s.started_by : null,
      confirmed_by_gateway: isApproved(d.gatewayStatus),
      gateway_type: d.transactionType,
      warning: null,
      reason_code: null,
      deadline: null,
    })
  }
  const confirmed = new Set<string>()
  // A gateway event that accounts for one of the shop's own entries confirms it (same kind, same amount).
  // A dispute is listed once STATUS confirmed it: an unconfirmed one is a forged or duplicated callback (the callback
  // log keeps it, with why).
  const events = s.events.filter((e) => {
    if (e.dispute && !e.confirmed) return false
    if (e.outside_medusa) return true
    confirmed.add(`${eventKind(e.type)}:${e.amount ?? ""}`)
    return false
  })
  const ledger: Array<[ActivityKind, NonNullable<SessionData["captures"]>[number]]> = [
    ...(d.captures ?? []).map((e) => ["capture", e] as [ActivityKind, typeof e]),
    ...(d.refunds ?? []).map((e) => ["refund", e] as [ActivityKind, typeof e]),
    ...(d.voidEntry ? [["release", d.voidEntry] as [ActivityKind, typeof d.voidEntry]] : []),
  ]
  for (const [kind, e] of ledger) {
    const row = s.medusa_rows.get(e.id)
    const by = row?.created_by ? s.emails.get(row.created_by) ?? null : null
    out.push({
      id: e.id,
      kind,
      origin: "dashboard",
      amount: e.amount,
      currency: e.currency ?? d.currency,
      status: e.status ?? null,
      pending: e.pending === true,
      at: iso(row?.created_at),
      by,
      confirmed_by_gateway: confirmed.has(`${kind}:${e.amount}`) || (isApproved(e.status) && !e.pending),
      gateway_type: kind === "capture" ? "capture" : kind === "refund" ? "return" : "void",
      warning: null,
      reason_code: null,
      deadline: null,
    })
  }
  for (const e of events) {
    out.push({
      id: e.callback_id,
      kind: eventKind(e.type),
      origin: "gateway",
      amount: e.amount,
      currency: e.currency,
      status: e.status,
      pending: false,
      at: e.dispute?.date ?? e.received_at,
      by: null,
      confirmed_by_gateway: e.confirmed,
      gateway_type: e.type,
      warning: e.warning,
      reason_code: e.dispute?.reason_code ?? null,
      deadline: e.dispute?.deadline ?? null,
    })
  }
  return out
}

/**
 * Authorized, captured, refunded, charged back and left to capture per currency, over every PaynetEasy payment of the
 * order. Only approved transactions count; a capture or refund still undecided at the gateway counts as pending.
 */
export function moneySummary(sessions: SessionMoneyInput[], activity: ActivityEntry[][]): MoneySummary[] {
  type Acc = { authorized: bigint; captured: bigint; refunded: bigint; charged_back: bigint; left: bigint; pending: bigint }
  const by = new Map<string, Acc>()
  const acc = (currency: string) => {
    const c = currency.toUpperCase()
    if (!by.has(c)) by.set(c, { authorized: 0n, captured: 0n, refunded: 0n, charged_back: 0n, left: 0n, pending: 0n })
    return by.get(c)!
  }
  const minor = (amount: string | null, currency: string) => {
    try {
      return amount ? toMinorUnits(amount, currency) : 0n
    } catch {
      return 0n
    }
  }
  sessions.forEach((s, i) => {
    const d = s.data
    if (!d || !(s.authorized || isApproved(d.gatewayStatus))) return
    const a = acc(d.currency)
    const amount = minor(d.amount, d.currency)
    a.authorized += amount
    let captured = d.transactionType === "sale" ? amount : 0n
    for (const e of activity[i] ?? []) {
      const cur = (e.currency ?? d.currency).toUpperCase()
      if (cur !== d.currency.toUpperCase()) continue
      const m = minor(e.amount, cur)
      if (e.pending && (e.kind === "capture" || e.kind === "refund")) {
        a.pending += m
        continue
      }
      if (!isApproved(e.status)) continue
      if (e.kind === "capture") captured += m
      else if (e.kind === "refund") a.refunded += m
      // a dispute's money (core/disputes): taken, given back or none; only what STATUS confirmed is listed here
      else if (isDisputeKind(e.kind) && e.origin === "gateway") a.charged_back += disputeMoneyMinor(e.kind, m)
    }
    a.captured += captured
    const released = d.voided === true || (activity[i] ?? []).some((e) => e.kind === "release" && isApproved(e.status))
    if (d.transactionType === "preauth" && !released && amount > captured) a.left += amount - captured
  })
  return [...by.entries()].map(([currency, a]) => ({
    currency,
    authorized: fromMinorUnits(a.authorized, currency),
    captured: fromMinorUnits(a.captured, currency),
    refunded: fromMinorUnits(a.refunded, currency),
    // never below nothing: a reversal whose chargeback is not recorded yet (its callback still on the way) gives back
    // nothing that was counted
    charged_back: fromMinorUnits(a.charged_back > 0n ? a.charged_back : 0n, currency),
    left_to_capture: fromMinorUnits(a.left, currency),
    pending: fromMinorUnits(a.pending, currency),
  }))
}

/** What the panel can truthfully say about 3-D Secure, for each way a payment is made. */
export function threeDsState(kind: PaymentKind, d: SessionData | undefined, reported: boolean, shopperReturned: boolean): ThreeDsState {
  if (reported) return "reported"
  if (kind === "hosted") return "hosted_page"
  if (d?.nextAction) return "challenge_in_progress"
  if (kind === "rebill" || kind === "renewal") return "not_applicable"
  // direct card or a saved card at checkout: the shopper comes back to the shop only from a bank's challenge
  return shopperReturned ? "challenge_completed" : "no_challenge"
}

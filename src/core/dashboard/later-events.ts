/**
 * The order panel's later events (chargebacks and the other disputes, returns or captures made outside Medusa): the
 * callback-log rows of a non-initial type, as pure views. One is `outside_medusa` (and `warning`) when it is a
 * dispute or another type Medusa never makes, or a capture/return whose amount no ledger entry of the Medusa payment
 * accounts for.
 *
 * `confirmed`: STATUS established it — the reconciliation's own STATUS call (source `reconcile`), or a callback whose
 * event STATUS confirmed and which was therefore reflected on the order (its entry in metadata.payneteasy_events,
 * core/callbacks/reflect-later-event.ts). A dispute (issue 51) shows the confirmed values (STATUS's amount, reason code
 * and processing date) and its deadline (core/disputes); an unconfirmed one is shown as such and moves no money in the
 * summary (order-money.ts); one STATUS refuted (row `ignored`: forged, or a second callback of a dispute already
 * recorded) has no warning — the callback log says why.
 */
import { disputeReasonCodeOf } from "../../gateway/disputes"
import { isInitialTransactionType } from "../../gateway/statuses"
import type { CallbackRow } from "../../modules/payneteasy/service"
import type { GatewayEventEntry } from "../callbacks/reflect-later-event"
import type { SessionData } from "../checkout/session-data"
import { DISPUTE_RULES, disputeView } from "../disputes/disputes"
import { eventKind, type GatewayEvent } from "./order-money"

const LEDGER_TYPES: Record<string, "captures" | "refunds" | "void"> = {
  capture: "captures",
  reversal: "refunds",
  return: "refunds",
  refund: "refunds",
  cancel: "void",
  void: "void",
}

export interface LaterEventView extends GatewayEvent {
  reason: string | null
}

type Row = Pick<CallbackRow, "id" | "source" | "type" | "status" | "amount" | "currency" | "error_code" | "error_message" | "received_at" | "outcome" | "params">

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "?")

export function laterEventViews(rows: Row[], d: SessionData | undefined, reflected: ReadonlyMap<string, GatewayEventEntry> = new Map()): LaterEventView[] {
  const remaining: Record<"captures" | "refunds", string[]> = {
    captures: (d?.captures ?? []).map((e) => e.amount),
    refunds: (d?.refunds ?? []).map((e) => e.amount),
  }
  return rows
    .filter((r) => r.source !== "return" && !(r.type.trim() === "" || isInitialTransactionType(r.type)))
    .sort((a, b) => new Date(a.received_at).getTime() - new Date(b.received_at).getTime())
    .map((r) => {
      const type = r.type.trim().toLowerCase()
      const ledger = LEDGER_TYPES[type]
      const entry = reflected.get(r.id)
      const confirmed = r.source === "reconcile" || !!entry
      const dispute = disputeView(r.type, {
        reasonCode: entry?.reason_code ?? disputeReasonCodeOf(r.params as Record<string, unknown>) ?? null,
        date: entry?.processed_at ?? r.received_at,
      }) ?? null
      // a confirmed dispute's amount is STATUS's (the callback's is not covered by its control)
      const amount = dispute && entry ? entry.amount : r.amount
      const currency = dispute && entry ? entry.currency ?? r.currency : r.currency
      let outside: boolean
      if (ledger === "void") outside = !d?.voided
      else if (ledger) {
        const i = r.amount ? remaining[ledger].indexOf(r.amount) : -1
        outside = i < 0 && r.status === "approved"
        if (i >= 0) remaining[ledger].splice(i, 1)
      } else outside = true // a dispute, or another type Medusa never makes
      const money = amount ? ` of ${amount} ${currency ?? ""}`.trimEnd() : ""
      let warning: string | null
      if (dispute) {
        const rule = DISPUTE_RULES[dispute.kind]
        const code = dispute.reason_code ? ` (reason code ${dispute.reason_code})` : ""
        warning = confirmed
          ? `A ${rule.name}${money}${code} was reported by the gateway; by ${day(dispute.deadline)}: ${rule.whatToDo}`
          : r.outcome === "ignored"
            ? null
            : `A ${rule.name}${money} was reported and is not confirmed by the gateway's STATUS yet: check it in the PaynetEasy back office`
      } else {
        const kind = eventKind(r.type)
        const words = kind === "other" ? `gateway event (${r.type})` : kind
        warning = !ledger
          ? `A ${words}${money} was reported by the gateway: Medusa's payment does not show it — check it in the PaynetEasy back office`
          : outside
            ? `A ${words}${money} was made at the gateway outside this shop: Medusa's payment does not show it`
            : null
      }
      return {
        callback_id: r.id,
        type: r.type,
        status: r.status,
        amount,
        currency,
        reason: r.error_message ?? r.error_code ?? null,
        received_at: new Date(r.received_at).toISOString(),
        confirmed,
        outside_medusa: outside,
        warning,
        dispute,
      }
    })
}

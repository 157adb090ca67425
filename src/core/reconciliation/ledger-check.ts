/**
 * What one reconciliation check of a ledger entry (a capture, refund or void the gateway had not decided when Medusa
 * recorded it) concludes: the decision of workflows/payneteasy/reconcile-ledger.ts as a pure function, with the
 * shapes that workflow reads (issue 54: it lived in the workflow file).
 */
import { isApproved, isFinal } from "../../gateway/statuses"
import type { ReconciliationRow } from "../../modules/payneteasy/service"
import { GATEWAY_TYPE, type LedgerKind } from "../checkout/ledger"
import { pastProcessingWindow } from "../connection"
import { nextCheckAt } from "./backoff"
import { watchUpdate, type WatchUpdate } from "./watch"
import type { CheckVerdict } from "./session-check"

export type PaymentRow = {
  id: string
  provider_id: string
  payment_session_id: string
  payment_collection_id: string
  data: Record<string, unknown> | null
  captures?: Array<{ id: string; created_at: string | Date }>
  refunds?: Array<{ id: string; created_at: string | Date }>
}

/** What STATUS said about the entry; `notShownYet`: the order's latest transaction is still the one before it. */
export type StatusAnswer = { status: string; errorCode?: string; errorMessage?: string; serial?: string; notShownYet?: true }

export type EntryView = { id: string; amount?: string; currency?: string; serialNumber?: string; afterSerial?: string; sentAt?: string }

export type LedgerLook =
  | { gone: true }
  | { gone: false; kind: LedgerKind; payment: PaymentRow; entry: EntryView; answer: StatusAnswer; windowMs?: number }

/**
 * Pure: whether the order's latest transaction (STATUS asked without a serial, for an entry whose request's reply was
 * lost) is this entry's: "ours" only when it is newer than the one before the request was sent (`afterSerial`), of
 * the entry's kind, and not a transaction the ledger already gives to another entry (`claimed`). Without that last
 * check a refund lost to a reset adopted the next refund's RETURN: two Medusa refunds on one reversal (fault trials,
 * seed 20261123). "not-shown-yet": the gateway may still be processing it; "unclear": we cannot tell.
 */
export function latestSpeaksFor(
  entry: { afterSerial?: string },
  latest: { serial?: string; type?: string },
  kind: LedgerKind,
  claimed: ReadonlySet<string>
): "ours" | "not-shown-yet" | "unclear" {
  if (entry.afterSerial !== undefined && latest.serial === entry.afterSerial) return "not-shown-yet"
  if (latest.type !== GATEWAY_TYPE[kind]) return entry.afterSerial !== undefined ? "not-shown-yet" : "unclear"
  if (latest.serial !== undefined && claimed.has(latest.serial)) return entry.afterSerial !== undefined ? "not-shown-yet" : "unclear"
  return "ours"
}


/** Pure: the watch update and verdict for one ledger check. */
export function ledgerCheck(
  row: Pick<ReconciliationRow, "id" | "checks" | "started_at">,
  look: LedgerLook,
  checkedAt: Date,
  flaggedDetail?: string
): { update: WatchUpdate; verdict: CheckVerdict; warning?: string } {
  if (look.gone) {
    return { verdict: "settled", update: watchUpdate(row, checkedAt, { state: "final", note: "ledger entry no longer pending (or gone)" }) }
  }
  const { kind, entry, answer, payment } = look
  if (isApproved(answer.status)) {
    return { verdict: "settled", update: watchUpdate(row, checkedAt, { state: "final", lastStatus: "approved", note: `${kind} approved by the gateway` }) }
  }
  if (isFinal(answer.status)) {
    return {
      verdict: "flagged",
      update: watchUpdate(row, checkedAt, { state: "flagged", lastStatus: answer.status, note: answer.errorMessage ?? flaggedDetail ?? "" }),
      warning: `PaynetEasy: ${flaggedDetail}`,
    }
  }
  if (answer.notShownYet && entry.sentAt && pastProcessingWindow(entry.sentAt, checkedAt, look.windowMs)) {
    const minutes = Math.round((look.windowMs ?? 0) / 60_000)
    return {
      verdict: "flagged",
      update: watchUpdate(row, checkedAt, {
        state: "flagged",
        lastStatus: answer.status,
        note:
          `${kind} ${entry.id} was sent, its reply was lost, and the gateway's STATUS has not shown it within the processing window ` +
          `(${minutes} min): it may or may not have moved money. Nothing was sent again: check order ${String(payment.data?.orderId ?? "?")} ` +
          "in the PaynetEasy back office and correct the order in Medusa if it did not",
      }),
      warning: `PaynetEasy: ${kind} ${entry.id} of payment ${payment.id} not shown by the gateway within the processing window; flagged for a person`,
    }
  }
  const next = nextCheckAt(new Date(row.started_at), checkedAt)
  if (!next) {
    return {
      verdict: "flagged",
      update: watchUpdate(row, checkedAt, {
        state: "flagged",
        lastStatus: answer.status,
        note: `${kind} ${entry.id} has no final gateway status after an hour: stop polling and ask the PaynetEasy account manager`,
      }),
      warning: `PaynetEasy: ${kind} ${entry.id} of payment ${payment.id} has no final gateway status after an hour; flagged for a person`,
    }
  }
  return { verdict: "pending", update: watchUpdate(row, checkedAt, { state: "pending", lastStatus: answer.status }, next) }
}

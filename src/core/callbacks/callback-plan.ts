/**
 * What processing a recorded callback does, decided (issue 54: the decisions lived in the workflow file,
 * workflows/payneteasy/process-callback.ts, whose header tells the whole story). Pure: the workflow reads the row, its
 * session and where it leads under the session's lock, asks STATUS to confirm a later event when this says so, logs
 * the warnings, and runs the step the plan names.
 */
import type { Confirmation } from "../../gateway"
import { isInitialTransactionType } from "../../gateway/statuses"
import { disputeReasonCodeOf, isDisputeType } from "../../gateway/disputes"
import type { CallbackRow } from "../../modules/payneteasy/service"
import { rowKindOf } from "./order-kinds"
import { isGiveBackNotice } from "./orphaned-payment"
import type { PaymentLinks } from "./processing-reads"
import type { ConfirmedEventFact } from "./reflect-later-event"
import type { SessionInfo } from "./verify"
import { paymentIdsText } from "../telemetry/payment-log"

type Outcome = CallbackRow["outcome"]
type Result = { outcome: Outcome; detail: string }

export type Plan =
  | { kind: "done" }
  | ({ kind: "final" } & Result)
  | { kind: "later"; fact: ConfirmedEventFact; paymentCollectionId: string }
  | { kind: "initial"; callbackStatus: string; session: SessionInfo; links?: PaymentLinks }
  | { kind: "payout" }
  | { kind: "card_verification" }
  | { kind: "recurring" }
  | { kind: "orphan" }

/** A plan, and the warning the workflow logs with it. `confirm`: a later event, which STATUS must confirm first. */
export type Planned<P> = { plan: P; warning?: string }

/** A row whose processing is over: never processed again (a redelivered event is a no-op). */
export const isDone = (row: Pick<CallbackRow, "outcome">) => row.outcome === "processed" || row.outcome === "ignored" || row.outcome === "flagged"
/** A callback row's ids in the payment log's one shape (core/telemetry/payment-log.ts). */
const rowIds = (row: CallbackRow) => paymentIdsText({ paymentSessionId: row.session_id, gatewayOrderId: row.orderid, clientOrderId: row.client_orderid })
const final = (outcome: Outcome, detail: string, warning?: string): Planned<Plan> => ({ plan: { kind: "final", outcome, detail }, warning })

/**
 * The plan for a row before any gateway call. `ownOrder`: the row carries this plugin's tag
 * (core/checkout/callback-owner.ts), asked only when Medusa has no session for it.
 */
export function planCallback(
  row: CallbackRow,
  session: SessionInfo | undefined,
  links: PaymentLinks | undefined,
  facts: { ownOrder: boolean }
): Planned<Plan | { kind: "confirm" }> {
  if (isDone(row)) return { plan: { kind: "done" } }
  if (row.source !== "callback") return final("ignored", "a shopper return never counts as the outcome")
  const rowKind = rowKindOf(row.client_orderid)?.name
  if (rowKind) return { plan: { kind: rowKind } }
  if (!session) {
    // An order this plugin registered (its callback carries our tag): its approved payment is given back, once; the
    // gateway's notice of that give-back needs nobody (core/callbacks/orphaned-payment.ts).
    if (facts.ownOrder) {
      if (isInitialTransactionType(row.type) && row.status === "approved") return { plan: { kind: "orphan" } }
      if (isGiveBackNotice(row)) return final("ignored", `${row.type} ${row.status} on an order whose payment session Medusa had deleted: the gateway's notice of its give-back`)
    }
    if (row.status === "approved") {
      return final(
        "flagged",
        `approved ${row.type} for a payment session that no longer exists (deleted after a cart change?): the shopper may have been charged with no order; a person must refund/void it at the gateway or create the order`,
        `PaynetEasy: APPROVED ${row.type} for a payment session Medusa no longer has (orderid ${row.orderid}, client_orderid ${row.client_orderid}, amount ${row.amount ?? "?"} ${row.currency ?? ""}): the shopper may have paid with no order; callback ${row.id} flagged — refund or void it in the gateway's back office, or make the order by hand` + rowIds(row)
      )
    }
    return final(
      "ignored",
      "genuine callback for an order with no Medusa payment session (deleted or not ours): a person must check it",
      `PaynetEasy: genuine callback ${row.id} (orderid ${row.orderid}, client_orderid ${row.client_orderid}, ${row.type} ${row.status}) for an order Medusa does not know; check it in the gateway's back office` + rowIds(row)
    )
  }
  if (isInitialTransactionType(row.type)) return { plan: { kind: "initial", callbackStatus: row.status, session, links } }
  return { plan: { kind: "confirm" } }
}

/** The plan for a later event (return, chargeback, …) once STATUS has answered about it: reflect it, or ignore it. */
export function laterEventPlan(row: CallbackRow, session: SessionInfo, confirmation: Confirmation): Planned<Plan> {
  if (!confirmation.confirmed) {
    return final(
      "ignored",
      `not confirmed by STATUS: ${confirmation.reason}`,
      `PaynetEasy: callback ${row.id} (${row.type} ${row.status} on order ${row.orderid}) is not confirmed by the gateway and was not recorded on any order: ${confirmation.reason}` + rowIds(row)
    )
  }
  const e = confirmation.event
  return {
    plan: {
      kind: "later",
      paymentCollectionId: session.payment_collection_id,
      fact: {
        logId: row.id, source: "callback", sessionId: row.session_id, orderid: row.orderid, type: e.type, status: e.status,
        amount: e.amount, currency: e.currency, serial: e.serial, reason: e.errorMessage ?? e.errorCode ?? null, receivedAt: row.received_at,
        // a dispute's reason code: STATUS's, else the callback's word (it moves no money); its date: STATUS's
        ...(isDisputeType(e.type)
          ? { reasonCode: e.reasonCode ?? disputeReasonCodeOf(row.params as Record<string, unknown>) ?? null, processedAt: e.processedAt ?? null }
          : {}),
      },
    },
  }
}

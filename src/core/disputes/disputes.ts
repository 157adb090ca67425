/**
 * What a dispute means for the shop (issue 51), decided once per kind: whether it moves money, what a person must do
 * and by when. Pure; the wire spellings are gateway/disputes.ts, the order panel (core/dashboard/order-panel.ts,
 * order-money.ts) and the attention queue (core/dashboard/attention.ts) read these rules.
 *
 * Money: a chargeback and a second chargeback take the amount back from the shop, a chargeback reversal gives it back,
 * a retrieval request and a fraud marker (TC40 / SAFE) move none (they warn of a chargeback to come).
 * Deadlines (the spec says nothing; chosen, and written in docs/disputes.md): counted in whole days from the dispute's
 * date (STATUS's processing date, else when it was received). They are the shop's own cut-offs, shorter than the
 * schemes' windows on purpose (the acquirer needs time to pass the answer on):
 * - chargeback: 30 days to answer with evidence (Visa gives the acquirer 30, Mastercard 45);
 * - second chargeback (pre-arbitration / arbitration): 10 days;
 * - retrieval request: documents within 10 days (schemes allow about 30; an unanswered one becomes a chargeback
 *   that cannot be won);
 * - fraud marker: 3 days to decide whether to refund (a refund before the chargeback avoids its fee and the dispute);
 * - chargeback reversal: 14 days to check the money in the settlement report and undo any adjustment made by hand.
 */
import { disputeKindOf, type DisputeKind } from "../../gateway/disputes"

export type DisputeMoney = "takes" | "gives_back" | "none"

export interface DisputeRule {
  /** its name in the server's English sentences (the admin shows its own translated label) */
  name: string
  money: DisputeMoney
  /** the shop's deadline, in days from the dispute's date */
  respondWithinDays: number
  /** what a person must do, in the attention queue's words */
  whatToDo: string
}

export const DISPUTE_RULES: Record<DisputeKind, DisputeRule> = {
  chargeback: {
    name: "chargeback",
    money: "takes",
    respondWithinDays: 30,
    whatToDo:
      "The card holder's bank disputes this payment and took the money back. Answer the chargeback in the PaynetEasy back office with your evidence (receipt, delivery proof, correspondence) by the deadline, or accept it; adjust the order in Medusa by hand if the money is gone.",
  },
  second_chargeback: {
    name: "second chargeback",
    money: "takes",
    respondWithinDays: 10,
    whatToDo:
      "The bank rejected your answer to the first chargeback and charged back again (pre-arbitration / arbitration). Decide in the PaynetEasy back office by the deadline whether to take it to arbitration (fees apply) or accept the loss; adjust the order in Medusa by hand.",
  },
  retrieval_request: {
    name: "retrieval request",
    money: "none",
    respondWithinDays: 10,
    whatToDo:
      "The card holder's bank asks for the documents of this payment (no money moved yet). Upload the receipt, invoice and delivery proof in the PaynetEasy back office by the deadline: unanswered, it becomes a chargeback you cannot win.",
  },
  fraud_marker: {
    name: "fraud report (TC40 / SAFE)",
    money: "none",
    respondWithinDays: 3,
    whatToDo:
      "The card's bank reported this payment as fraud (TC40 / SAFE; no money moved). Check the order in the PaynetEasy back office by the deadline: if it was not shipped or looks fraudulent, refund it from the order page to avoid a chargeback; otherwise keep the evidence.",
  },
  chargeback_reversal: {
    name: "chargeback reversal",
    money: "gives_back",
    respondWithinDays: 14,
    whatToDo:
      "The bank reversed an earlier chargeback and gave the money back. Nothing to answer: check by the deadline that it is in the settlement report, close the dispute in the PaynetEasy back office and undo any adjustment you made to the order by hand.",
  },
}

/** The dispute's effect on the money charged back, minor units: + taken, − given back, 0 none. */
export function disputeMoneyMinor(kind: DisputeKind, amountMinor: bigint): bigint {
  const money = DISPUTE_RULES[kind].money
  return money === "takes" ? amountMinor : money === "gives_back" ? -amountMinor : 0n
}

const DAY_MS = 24 * 60 * 60 * 1000

/** The shop's deadline (ISO) for a dispute of this kind dated `date`; null when the date cannot be read. */
export function disputeDeadline(kind: DisputeKind, date: string | Date | null | undefined): string | null {
  const ms = date ? new Date(date).getTime() : NaN
  if (Number.isNaN(ms)) return null
  return new Date(ms + DISPUTE_RULES[kind].respondWithinDays * DAY_MS).toISOString()
}

/** A dispute as the dashboard shows it (order panel, attention queue). */
export interface DisputeView {
  kind: DisputeKind
  reason_code: string | null
  /** when the gateway processed it (else when it was received), ISO */
  date: string | null
  deadline: string | null
  money: DisputeMoney
  what_to_do: string
}

/** The dispute view of a later event of this wire type, or undefined when the type is no dispute. */
export function disputeView(type: string, facts: { reasonCode?: string | null; date: string | Date | null | undefined }): DisputeView | undefined {
  const kind = disputeKindOf(type)
  if (!kind) return undefined
  const date = facts.date && !Number.isNaN(new Date(facts.date).getTime()) ? new Date(facts.date).toISOString() : null
  return {
    kind,
    reason_code: facts.reasonCode ?? null,
    date,
    deadline: disputeDeadline(kind, date),
    money: DISPUTE_RULES[kind].money,
    what_to_do: DISPUTE_RULES[kind].whatToDo,
  }
}

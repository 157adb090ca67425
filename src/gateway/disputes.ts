/**
 * The gateway's dispute transactions (issue 51): besides a chargeback, the card schemes report a retrieval request
 * (the card holder's bank asks for documents), a fraud marker (Visa TC40, Mastercard SAFE), a second chargeback
 * (pre-arbitration / arbitration) and a chargeback reversal (the bank gives the money back). Each arrives as a later
 * transaction on the gateway order, by callback (`notify_url`, gateway notes §7) and in STATUS (`transaction-type`).
 *
 * The wire spellings are written here once. The notes name only `chargeback` as a transaction type (§3, §7); the
 * others are not documented, so each kind accepts the spellings a PaynetEasy back office and its white labels are
 * likely to use (underscores, hyphens or spaces, any case) and sends its first one (the sandbox does). Every spelling
 * contains "chargeback", "retrieval" or "fraud": the callback log's dispute index covers exactly those words
 * (models/callback-log.ts), so a new alias outside them would not be found by the attention queue (a test checks).
 * The reason code is the callback's `reason-code` (notes §7; a STATUS reply may carry it too), the dispute's date
 * STATUS's `paynet-processing-date` (notes §3). No Medusa imports.
 */

export const DISPUTE_KINDS = ["chargeback", "second_chargeback", "retrieval_request", "fraud_marker", "chargeback_reversal"] as const
export type DisputeKind = (typeof DISPUTE_KINDS)[number]

/** Each kind's wire spellings, canonical (sent, and what a confirmed event is recorded as) first. */
const WIRE_TYPES: Record<DisputeKind, readonly string[]> = {
  chargeback: ["chargeback", "first_chargeback"],
  second_chargeback: ["second_chargeback", "chargeback2", "arbitration_chargeback", "pre_arbitration_chargeback"],
  retrieval_request: ["retrieval_request", "retrieval", "copy_request_retrieval"],
  fraud_marker: ["fraud", "fraud_marker", "fraud_report", "tc40_fraud", "safe_fraud"],
  chargeback_reversal: ["chargeback_reversal", "reversal_of_chargeback", "chargeback_reversed"],
}

/** The words of every dispute spelling (the callback log's dispute index and the attention queue's query use them). */
export const DISPUTE_TYPE_WORDS = ["chargeback", "retrieval", "fraud"] as const

const normal = (type: string | undefined | null) => (type ?? "").trim().toLowerCase().replace(/[\s-]+/g, "_")

const BY_SPELLING = new Map<string, DisputeKind>(
  DISPUTE_KINDS.flatMap((k) => WIRE_TYPES[k].map((t) => [t, k] as [string, DisputeKind]))
)

/** Every spelling of every kind. */
export const DISPUTE_WIRE_TYPES: readonly string[] = [...BY_SPELLING.keys()]

/** The kind of a wire transaction type, or undefined when it is no dispute (capture, reversal, an unknown word). */
export const disputeKindOf = (type: string | undefined | null): DisputeKind | undefined => BY_SPELLING.get(normal(type))
export const isDisputeType = (type: string | undefined | null): boolean => disputeKindOf(type) !== undefined
/** The spelling the gateway (and the sandbox) uses for a kind. */
export const disputeWireType = (kind: DisputeKind): string => WIRE_TYPES[kind][0]

type Fields = Record<string, unknown> | undefined | null
const text = (r: Fields, ...keys: string[]): string | undefined => {
  for (const k of keys) {
    const v = r?.[k]
    const s = typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : ""
    if (s && s.toLowerCase() !== "null") return s
  }
  return undefined
}

/** The scheme's reason code of a dispute (`reason-code`; `reason_code` as some white labels write it). */
export const disputeReasonCodeOf = (r: Fields): string | undefined => text(r, "reason-code", "reason_code")?.slice(0, 64)

/** The date the gateway processed the dispute (`paynet-processing-date`), as an ISO string; undefined when unreadable. */
export function disputeDateOf(r: Fields): string | undefined {
  const v = text(r, "paynet-processing-date")
  if (!v) return undefined
  const ms = Date.parse(v)
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString()
}

/**
 * Gateway transaction statuses, written once: every reading of a wire `status` goes through here.
 *
 * The list and the wire parser live in the operation table (operations.ts GATEWAY_STATUSES, parseGatewayStatus: every
 * `status` field of a reply parses through it, gateway notes §4); a value the docs do not list parses as the explicit "other", which is never final and never approved, so an
 * unexpected spelling can only make us wait, never move or confirm money.
 */
import { FINAL_STATUSES, GATEWAY_STATUSES, parseGatewayStatus, type GatewayStatus } from "./operations"

export { GATEWAY_STATUSES, parseGatewayStatus, type GatewayStatus }
export type FinalGatewayStatus = (typeof FINAL_STATUSES)[number]

const FINAL = new Set<string>(FINAL_STATUSES)

type HasStatus = string | undefined | null | { status?: string | null }
const of = (v: HasStatus): GatewayStatus => parseGatewayStatus(typeof v === "object" && v !== null ? v.status : v)

/** approved, declined, error or filtered: the gateway has decided (a STATUS reply, a ledger entry or a bare status). */
export const isFinal = (v: HasStatus): boolean => FINAL.has(of(v))
/** The only status that means money moved as asked. */
export const isApproved = (v: HasStatus): boolean => of(v) === "approved"
/** Final and not approved: declined, error or filtered (the gateway refused; nothing moved). */
export const isDeclined = (v: HasStatus): boolean => isFinal(v) && !isApproved(v)
/** The same statuses as a list, for a query over stored statuses (declined, error, filtered). */
export const DECLINED_STATUSES: readonly FinalGatewayStatus[] = FINAL_STATUSES.filter((s) => s !== "approved")

/** The transaction types that carry a payment's own outcome (its first transaction); every other type is a later
 *  event on the order (capture, return, void, chargeback, …). Written once (issue 54). */
export const INITIAL_TRANSACTION_TYPES = ["sale", "preauth"] as const
const INITIAL = new Set<string>(INITIAL_TRANSACTION_TYPES)

/** Whether a wire transaction type (any case, spaces around) is an initial one. */
export const isInitialTransactionType = (type: string | undefined | null): boolean => INITIAL.has((type ?? "").trim().toLowerCase())

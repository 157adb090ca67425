/**
 * Gateway transaction statuses, written once: every reading of a wire `status` goes through here.
 *
 * The list derives from the operation table (operations.ts FINAL_STATUSES / NON_FINAL_STATUSES, gateway notes §4);
 * a value the docs do not list parses as the explicit "other", which is never final and never approved, so an
 * unexpected spelling can only make us wait, never move or confirm money.
 */
import { FINAL_STATUSES, NON_FINAL_STATUSES } from "./operations"

export const GATEWAY_STATUSES = [...FINAL_STATUSES, ...NON_FINAL_STATUSES, "other"] as const
export type GatewayStatus = (typeof GATEWAY_STATUSES)[number]
export type FinalGatewayStatus = (typeof FINAL_STATUSES)[number]

const KNOWN = new Set<string>([...FINAL_STATUSES, ...NON_FINAL_STATUSES])
const FINAL = new Set<string>(FINAL_STATUSES)

/** The wire status as an enum value: trimmed, lower-cased, anything unlisted (or missing) is "other". */
export function parseGatewayStatus(status: unknown): GatewayStatus {
  const s = typeof status === "string" ? status.trim().toLowerCase() : ""
  return KNOWN.has(s) ? (s as GatewayStatus) : "other"
}

type HasStatus = string | undefined | null | { status?: string | null }
const of = (v: HasStatus): GatewayStatus => parseGatewayStatus(typeof v === "object" && v !== null ? v.status : v)

/** approved, declined, error or filtered: the gateway has decided (a STATUS reply, a ledger entry or a bare status). */
export const isFinal = (v: HasStatus): boolean => FINAL.has(of(v))
/** The only status that means money moved as asked. */
export const isApproved = (v: HasStatus): boolean => of(v) === "approved"
/** Final and not approved: declined, error or filtered (the gateway refused; nothing moved). */
export const isDeclined = (v: HasStatus): boolean => isFinal(v) && !isApproved(v)

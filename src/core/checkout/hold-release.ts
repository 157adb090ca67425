/**
 * Whether a payment's hold is released at the gateway, from its data: one rule for the provider's cancel (which sends
 * nothing once it is) and the order cancel's guard (which cancels the order only once it is). `voided` is set when a
 * void or a full return is sent or found; the entry it leaves (`voidEntry`, or the full return's "cancel" refund) is
 * what the gateway said. A release the gateway declined (known only later, from STATUS, when the VOID was still
 * processing) released nothing: the hold is live and may be released again (found from outside, issue 49).
 */
import { isApproved, isFinal } from "../../gateway/statuses"

type ReleaseEntry = { status?: unknown; pending?: unknown }

export function holdReleased(data: Record<string, unknown> | undefined): boolean {
  if (!data?.voided) return false
  const fullReturn = (Array.isArray(data.refunds) ? (data.refunds as Array<ReleaseEntry & { id?: unknown }>) : []).filter((r) => r.id === "cancel").pop()
  const entry = (data.voidEntry as ReleaseEntry | undefined) ?? fullReturn
  if (!entry || entry.pending === true) return true // found voided at STATUS, or still pending (settled by reconciliation)
  const status = String(entry.status ?? "")
  return !isFinal(status) || isApproved(status)
}

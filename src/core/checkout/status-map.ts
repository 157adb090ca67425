/**
 * THE table: gateway status × transaction type × next action → Medusa PaymentSessionStatus.
 *
 * Gateway facts (gateway notes §4): approved, declined, error, filtered are final; processing, unknown and
 * chain_declined are not ("unknown: inform your account manager", "chain_declined: non final"). Statuses the
 * docs do not list are treated as non-final. A STATUS reply may carry `html` or `redirect-to`: the payer must act
 * (3-D Secure) before the transaction can finish.
 *
 * Invariants the tests pin (status-map.unit.spec.ts):
 * - only `approved` ever maps to authorized or captured;
 * - a non-final or unlisted status is pending, or requires_more when the payer has a next action — never authorized;
 * - approved preauth → authorized (capture later); approved sale / capture → captured (money taken);
 * - approved void / reversal / return on the order → canceled; approved of a type we do not know → pending
 *   (we cannot tell whether money is held, so we do not claim it is).
 */
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { GATEWAY_STATUSES, parseGatewayStatus, type GatewayStatus } from "../../gateway/statuses"

export { GATEWAY_STATUSES }
export const TRANSACTION_TYPES = ["preauth", "sale", "capture", "void", "reversal", "other"] as const
export const NEXT_ACTIONS = ["none", "redirect", "html"] as const

export type GatewayStatusKey = GatewayStatus
export type TransactionTypeKey = (typeof TRANSACTION_TYPES)[number]
export type NextActionKey = (typeof NEXT_ACTIONS)[number]
type S = PaymentSessionStatus

const { AUTHORIZED, CAPTURED, PENDING, REQUIRES_MORE, ERROR, CANCELED } = PaymentSessionStatus

/** Same result whatever the next action (final statuses: the payer has nothing left to do). */
const always = (s: S): Record<NextActionKey, S> => ({ none: s, redirect: s, html: s })
/** Non-final: the payer's next action decides between waiting and asking the storefront to act. */
const waiting: Record<NextActionKey, S> = { none: PENDING, redirect: REQUIRES_MORE, html: REQUIRES_MORE }
const byType = (row: Record<TransactionTypeKey, Record<NextActionKey, S>>) => row
const sameForAllTypes = (cell: Record<NextActionKey, S>) =>
  byType({ preauth: cell, sale: cell, capture: cell, void: cell, reversal: cell, other: cell })

export const STATUS_TABLE: Record<GatewayStatusKey, Record<TransactionTypeKey, Record<NextActionKey, S>>> = {
  approved: byType({
    preauth: always(AUTHORIZED),
    sale: always(CAPTURED),
    capture: always(CAPTURED),
    void: always(CANCELED),
    reversal: always(CANCELED),
    other: always(PENDING),
  }),
  declined: sameForAllTypes(always(ERROR)),
  error: sameForAllTypes(always(ERROR)),
  filtered: sameForAllTypes(always(ERROR)),
  processing: sameForAllTypes(waiting),
  unknown: sameForAllTypes(waiting),
  chain_declined: sameForAllTypes(waiting),
  other: sameForAllTypes(waiting),
}

/** The one wire-status parser (gateway/statuses.ts), under the name this table's callers use. */
export const statusKey = (status: string | undefined): GatewayStatusKey => parseGatewayStatus(status)

/** Gateway transaction-type spellings → our key ("return" and "cancel" undo the order like a reversal). */
export function transactionTypeKey(type: string | undefined): TransactionTypeKey {
  const t = (type ?? "").trim().toLowerCase()
  switch (t) {
    case "preauth":
    case "sale":
    case "capture":
    case "void":
    case "reversal":
      return t
    case "return":
    case "cancel":
      return "reversal"
    default:
      return "other"
  }
}

export function nextActionKey(next: { html?: string; redirectTo?: string }): NextActionKey {
  if (next.redirectTo && next.redirectTo.trim()) return "redirect"
  if (next.html && next.html.trim()) return "html"
  return "none"
}

export function toSessionStatus(input: {
  status: string | undefined
  transactionType: string | undefined
  html?: string
  redirectTo?: string
}): S {
  return STATUS_TABLE[statusKey(input.status)][transactionTypeKey(input.transactionType)][nextActionKey(input)]
}

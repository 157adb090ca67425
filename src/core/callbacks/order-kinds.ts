/**
 * The kinds of client_orderid a gateway callback can carry, and how each one is authenticated.
 *
 * - a payment session (`payses_…`, core/checkout/client-order-id.ts): verified through that session's provider
 *   (verify.ts); not listed here.
 * - a plugin row whose id is the client_orderid: a payout (`pnepo_…`) or a saved card's zero-amount verification
 *   (`pnecard_…`). The payment providers know only sessions, so the control is checked with the control key of the
 *   registration that row records (`provider_id`), in memory (core/connection/callback-keys.ts).
 * - a recurring payment's charge (`pnerp_…`, in the sandbox `pnerp_…-c<n>` per charge: the vendor documentation does
 *   not settle what a charge carries, README "Recurring payments"): verified with the key of the registration that
 *   created the recurring payment row; a past-due subscription's retried charge carries `pnerp_…-r<n>`
 *   (core/recurring/retry-charge.ts).
 * Processing is chosen by the same kind (workflows/payneteasy/process-callback.ts). A new kind of callback is one more
 * entry in ROW_KINDS.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { verifiesUnder } from "../connection/callback-keys"
import { PAYNETEASY_MODULE } from "../../modules/payneteasy"
import { sessionIdFromClientOrderId } from "../checkout/client-order-id"

export type RowKindName = "payout" | "card_verification" | "recurring"

type List = (filters: Record<string, unknown>, config?: Record<string, unknown>) => Promise<Array<{ provider_id: string }>>
type RowService = { listPaynetEasyPayouts: List; listPaynetEasySavedCards: List; listPaynetEasyRecurringPayments: List }

export type RowKind = {
  name: RowKindName
  prefix: string
  /** The module's list method for these rows. */
  rows: (service: RowService) => List
  /** The row id a client_orderid of this kind names (undefined: malformed); the client_orderid itself by default. */
  rowId?: (clientOrderId: string) => string | undefined
}

const RECURRING_CLIENT_ORDER_ID = /^(pnerp_[0-9A-Za-z]+)(?:-[cr]\d+)?$/

/** The recurring payment row id a charge's client_orderid belongs to. */
export const recurringRowId = (clientOrderId: string) => RECURRING_CLIENT_ORDER_ID.exec(clientOrderId.trim())?.[1]

export const PAYOUT_CLIENT_ORDER_PREFIX = "pnepo_"

const PAYOUT_CLIENT_ORDER_ID = /^(pnepo_[0-9A-Za-z]+)(?:-e)?$/

/** The payout row id a payout's client_orderid (its own, or its eligibility check's) belongs to. */
export const payoutRowId = (clientOrderId: string) => PAYOUT_CLIENT_ORDER_ID.exec(clientOrderId.trim())?.[1]

export const ROW_KINDS: readonly RowKind[] = [
  // a payout's own requests carry its id; its PAN eligibility check carries `<payout id>-e` (payouts/eligibility.ts)
  { name: "payout", prefix: PAYOUT_CLIENT_ORDER_PREFIX, rows: (s) => s.listPaynetEasyPayouts.bind(s), rowId: payoutRowId },
  { name: "card_verification", prefix: "pnecard_", rows: (s) => s.listPaynetEasySavedCards.bind(s) },
  { name: "recurring", prefix: "pnerp_", rows: (s) => s.listPaynetEasyRecurringPayments.bind(s), rowId: recurringRowId },
]

/** The row kind a client_orderid names, or undefined (a payment session, or not ours). */
export function rowKindOf(clientOrderId: string | undefined | null): RowKind | undefined {
  const value = typeof clientOrderId === "string" ? clientOrderId.trim() : ""
  return ROW_KINDS.find((k) => value.startsWith(k.prefix))
}

export const isPayoutClientOrderId = (clientOrderId: string | undefined | null) => rowKindOf(clientOrderId)?.name === "payout"

/** Whether a client_orderid has the shape of one of ours (a session or a plugin row), whether or not it exists. */
export const looksOurs = (clientOrderId: string | undefined | null) =>
  sessionIdFromClientOrderId(clientOrderId) !== undefined || rowKindOf(clientOrderId) !== undefined

/** Verifies a callback for a plugin row with the control key of the registration that row records. */
export async function verifyRowMessage(
  container: MedusaContainer,
  kind: RowKind,
  clientOrderId: string,
  params: Record<string, string>
): Promise<{ providerId: string } | { reason: "forged" | "unknown_order" }> {
  const service = container.resolve<RowService>(PAYNETEASY_MODULE)
  // Deleted rows count: a genuine late callback (a dropped verification) still gets its 200 and stops the retries.
  const id = kind.rowId ? kind.rowId(clientOrderId) : clientOrderId.trim()
  const [row] = id ? await kind.rows(service)({ id }, { take: 1, select: ["provider_id"], withDeleted: true }) : []
  if (!row?.provider_id) return { reason: "unknown_order" }
  const verified = verifiesUnder(container.resolve("configModule"), row.provider_id, params)
  if (verified === undefined) return { reason: "unknown_order" } // its registration is no longer configured
  return verified ? { providerId: row.provider_id } : { reason: "forged" }
}

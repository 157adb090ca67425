/**
 * Confirming a later event on a gateway order (return, reversal, chargeback, a capture or void made outside Medusa)
 * with STATUS before anyone treats it as a fact.
 *
 * Why: a callback's control covers status + orderid + client_orderid only (gateway notes §7), so its `type` and
 * `amount` are whatever the sender wrote: one genuine callback URL can be replayed as "chargeback approved" with any
 * amount. What the gateway answers to STATUS is the fact. We ask STATUS for the order (its latest transaction) and
 * then for each candidate transaction by serial number (`by-request-sn`): the callback's own serial when it carries
 * one, the latest transaction's, and the serials the caller already knows (the payment's captures / refunds / void).
 * A candidate confirms the claim when its transaction type, status AND amount (minor units, the claim's currency)
 * agree. A serial already used by an earlier confirmed event is skipped, so a replay with a new event key cannot
 * turn one chargeback into two. Nothing agrees → unconfirmed, with the reason.
 *
 * Limit (fail closed): a gateway whose STATUS by serial reports the order's amount rather than the transaction's
 * (the sandbox reports the transaction's, README) confirms no money-back event whose amount differs from it; those
 * are logged as unconfirmed for a person, never reflected.
 */
import type { PaynetEasyClient } from "./client"
import { toMinorUnits } from "./money"
import { parseGatewayStatus } from "./statuses"
import { disputeDateOf, disputeKindOf, disputeReasonCodeOf, disputeWireType } from "./disputes"

export type LaterEventClaim = {
  orderid: string
  clientOrderId: string
  type: string
  status: string
  amount?: string | null
  currency?: string | null
  /** the callback's `serial-number`, when it carries one */
  serial?: string | null
}

export type ConfirmedLaterEvent = {
  type: string
  status: string
  amount: string | null
  currency: string | null
  serial: string
  errorCode?: string
  errorMessage?: string
  /** a dispute's reason code, as STATUS reports it (`reason-code`), when it does */
  reasonCode?: string
  /** when the gateway processed the transaction (`paynet-processing-date`), ISO, when STATUS says */
  processedAt?: string
}

export type Confirmation = { confirmed: true; event: ConfirmedLaterEvent } | { confirmed: false; reason: string }

/** At most this many STATUS calls by serial per claim (an order has a handful of transactions). */
export const MAX_SERIAL_CHECKS = 12

/** Transaction-type spellings of one thing ("return" / "cancel" are how some callbacks name a reversal; a dispute's
 *  aliases are its canonical spelling, gateway/disputes.ts). */
export function laterEventType(type: string | undefined | null): string {
  const t = (type ?? "").trim().toLowerCase()
  const dispute = disputeKindOf(t)
  if (dispute) return disputeWireType(dispute)
  return t === "return" || t === "cancel" ? "reversal" : t
}

function sameAmount(claimed: string | null | undefined, reported: string | undefined, currency: string | null | undefined): boolean {
  if (!claimed) return !reported // a claim without an amount (void) matches only a transaction without one
  if (!reported || !currency) return false
  try {
    return toMinorUnits(claimed, currency) === toMinorUnits(reported, currency)
  } catch {
    return false
  }
}

export async function confirmLaterEvent(
  client: PaynetEasyClient,
  claim: LaterEventClaim,
  known: { serials?: readonly string[]; used?: ReadonlySet<string> } = {}
): Promise<Confirmation> {
  const ask = (serial?: string) =>
    client.request("STATUS", { client_orderid: claim.clientOrderId, orderid: claim.orderid, "by-request-sn": serial })
  const latest = await ask()
  const used = known.used ?? new Set<string>()
  const candidates = [...new Set([claim.serial, latest["serial-number"], ...(known.serials ?? [])].filter((s): s is string => !!s))]
    .filter((s) => !used.has(s))
    .slice(0, MAX_SERIAL_CHECKS)
  const wantType = laterEventType(claim.type)
  const wantStatus = parseGatewayStatus(claim.status)
  const seen: string[] = []
  for (const serial of candidates) {
    let reply
    try {
      reply = await ask(serial)
    } catch {
      continue // a serial the gateway does not know for this order (e.g. a made-up one in the callback)
    }
    const type = laterEventType(reply["transaction-type"])
    const status = parseGatewayStatus(reply.status)
    const currency = reply.currency ?? claim.currency ?? null
    seen.push(`${type || "?"} ${status} ${reply.amount ?? "-"}`)
    if (type === wantType && status === wantStatus && status !== "other" && sameAmount(claim.amount, reply.amount, currency)) {
      return {
        confirmed: true,
        event: {
          type,
          status,
          amount: reply.amount ?? null,
          currency,
          serial: reply["serial-number"] ?? serial,
          errorCode: reply["error-code"],
          errorMessage: reply["error-message"]?.trim() || undefined,
          reasonCode: disputeReasonCodeOf(reply as Record<string, unknown>),
          processedAt: disputeDateOf(reply as Record<string, unknown>),
        },
      }
    }
  }
  return {
    confirmed: false,
    reason: `STATUS shows no unrecorded ${wantType} ${wantStatus} of ${claim.amount ?? "no amount"} ${claim.currency ?? ""} on order ${claim.orderid}`.replace(/\s+/g, " ") +
      (seen.length ? ` (checked: ${seen.join("; ")})` : " (no transaction to check)"),
  }
}

/**
 * Eligibility first: a payout to a card (typed or saved) asks PaynetEasy's PAN eligibility before any money request,
 * so a card that cannot receive money is refused in words instead of being found out by a declined payout.
 *
 * - The check is a request of its own under its own client order id, derived from the payout's (`<payout id>-e`),
 *   sent once: a lost or unreadable reply is settled by STATUS on that id, never by a second check
 *   (connection/reach.ts), and until STATUS shows it the payout stays `eligibility_checking`.
 * - Its outcome arrives like every other: by callback (the callback's client order id names the payout,
 *   callbacks/order-kinds.ts) or by STATUS (the send step's short poll, then the reconciliation tick). Approved →
 *   the payout's own request is sent; declined / error / filtered → `ineligible`, with the gateway's reason, and no
 *   money request is ever sent for it.
 * - A typed card number is needed again when the check is approved later than the send step waited: it is held in
 *   this process's memory only (never in the database, a workflow's input or a log), for HOLD_MS. A check approved
 *   after that, or in another process, fails the payout in words ("enter the card again"); a saved card has no such
 *   limit (its reference is read from the card row when the payout is sent).
 * - The registration option `panEligibility: false` (an account without it) skips the check; the history says so.
 * Every step is a row of the payout's history (the audit).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { GatewayError, type PaynetEasyClient } from "../../gateway"
import { errorCodeOf, errorMessageOf, failureDigest, orderIdOf } from "../../gateway/replies"
import { panEligibilityFields, type EligibilityCard } from "../../gateway/requests"
import { parseGatewayStatus, type GatewayStatus } from "../../gateway/statuses"
import { isNotFound, statusFields, type StatusReply } from "../connection/gateway-ops"
import { sendMoneyRequest } from "../connection/money-request"
import { callbackUrls, payoutClient, payoutProviderById } from "../connection/payout-config"
import { reachOf } from "../connection/reach"
import type { PayoutDestinationInput } from "./payout-request"
import { sendInitial } from "./gateway-calls"
import { applyChange, gatewayAnswer, getPayout, withPayoutLock, type PayoutRow } from "./payout-state"
import { payoutCardFor } from "./saved-card-destination"

/** The suffix of a check's client order id: `<payout id>-e`. */
export const ELIGIBILITY_SUFFIX = "-e"
export const eligibilityClientOrderId = (payout: Pick<PayoutRow, "client_orderid">) => `${payout.client_orderid}${ELIGIBILITY_SUFFIX}`

/** The payout a check's client order id belongs to (undefined: not a check's id). */
export const payoutIdOfCheck = (clientOrderId: string) =>
  clientOrderId.endsWith(ELIGIBILITY_SUFFIX) ? clientOrderId.slice(0, -ELIGIBILITY_SUFFIX.length) : undefined

/** What eligibility means for the payout: the outcome of each gateway status (every one named, issue 54). */
export const ELIGIBILITY_OUTCOME = {
  approved: "eligible",
  declined: "ineligible",
  error: "ineligible",
  filtered: "ineligible",
  processing: "waiting",
  unknown: "waiting",
  chain_declined: "waiting",
  other: "waiting",
} as const satisfies Record<GatewayStatus, "eligible" | "ineligible" | "waiting">

/** Whether this payout asks eligibility first: a card or a saved card (not the form, a bank, a wallet, a phone). */
export function asksEligibility(container: MedusaContainer, payout: PayoutRow): boolean {
  if (payout.method === "form") return false
  if (payout.destination_type !== "card" && payout.destination_type !== "saved_card") return false
  return payoutProviderById(container, payout.provider_id).panEligibility !== false
}

// ---------------------------------------------------------------------------------------------------------------
// The typed card, held in memory while its check is open.

export const HOLD_MS = 15 * 60_000
const held = new Map<string, { destination: PayoutDestinationInput; until: number }>()

export function holdDestination(payoutId: string, destination: PayoutDestinationInput, now = Date.now()): void {
  for (const [k, v] of held) if (v.until < now) held.delete(k)
  held.set(payoutId, { destination, until: now + HOLD_MS })
}

/** Takes the held destination out (once); undefined when none is held or it expired. */
export function takeHeldDestination(payoutId: string, now = Date.now()): PayoutDestinationInput | undefined {
  const entry = held.get(payoutId)
  held.delete(payoutId)
  return entry && entry.until >= now ? entry.destination : undefined
}

// ---------------------------------------------------------------------------------------------------------------

async function cardOf(container: MedusaContainer, payout: PayoutRow, d: PayoutDestinationInput): Promise<EligibilityCard> {
  if (d.type === "saved_card") {
    const row = await payoutCardFor(container, d.card_id, payout.provider_id)
    return { type: "card_ref", cardRefId: row.card_ref_id as string }
  }
  if (d.type !== "card") throw new Error(`eligibility asked for a ${d.type} destination`)
  return { type: "card", cardNumber: d.card_number, holder: payout.recipient ?? undefined }
}

const errorAnswer = (e: unknown) =>
  e instanceof GatewayError
    ? failureDigest({ source: e.name, code: e.code, message: e.gatewayMessage ?? e.message, httpStatus: e.httpStatus })
    : failureDigest({ source: "error", message: e instanceof Error ? e.message : String(e) })

async function withClient<T>(container: MedusaContainer, payout: PayoutRow, fn: (c: PaynetEasyClient) => Promise<T>): Promise<T> {
  const client = payoutClient(payoutProviderById(container, payout.provider_id))
  try {
    return await fn(client)
  } finally {
    await client.close().catch(() => undefined)
  }
}

/** The words an ineligible payout is refused with. */
export function ineligibleWords(reply: Record<string, unknown> | undefined): string {
  const why = errorMessageOf(reply)?.trim()
  return `This card cannot receive a payout${why ? `: ${why}` : ""}. PAN eligibility said no; no payout request was sent. Pay to another card or account.`
}

/** What a STATUS of the check (or its acknowledgement) means; the payout changed accordingly. Caller holds the lock. */
async function applyEligibility(container: MedusaContainer, payout: PayoutRow, reply: StatusReply, actor: string, how: string): Promise<PayoutRow> {
  const outcome = ELIGIBILITY_OUTCOME[parseGatewayStatus(reply.status)]
  if (outcome === "waiting") return payout
  if (outcome === "eligible") {
    return applyChange(container, payout, {
      actor, event: `PAN eligibility approved (${how}): the card can receive money`, status: "pending",
      patch: { eligibility: "eligible" } as Partial<PayoutRow>, gateway: gatewayAnswer(reply),
    })
  }
  return applyChange(container, payout, {
    actor, event: `PAN eligibility ${reply.status} (${how}): refused before any money request`, status: "ineligible",
    patch: { eligibility: "ineligible", error_code: errorCodeOf(reply) ?? null, error_message: ineligibleWords(reply).slice(0, 1000) } as Partial<PayoutRow>,
    gateway: gatewayAnswer(reply),
  })
}

/**
 * Sends the check (once) and records it; the payout is `eligibility_checking` afterwards, or `failed` when the gateway
 * refused the check itself (nothing was sent for money). Caller holds the payout lock.
 */
export async function askEligibility(container: MedusaContainer, payout: PayoutRow, destination: PayoutDestinationInput, actor: string): Promise<PayoutRow> {
  const clientOrderId = eligibilityClientOrderId(payout)
  const card = await cardOf(container, payout, destination)
  const fields = panEligibilityFields({ clientOrderId, card, callbackUrl: callbackUrls(payoutProviderById(container, payout.provider_id)).callbackUrl })
  payout = await applyChange(container, payout, {
    actor, event: `PAN eligibility asked (client order id ${clientOrderId})`, status: "eligibility_checking",
    patch: { eligibility: "checking", next_check_at: new Date(Date.now() + 5_000) } as Partial<PayoutRow>,
  })
  return withClient(container, payout, async (client) => {
    try {
      // one send; a reply that may have been lost is settled by a STATUS that shows the check, never by a second one
      const sent = await sendMoneyRequest(client, { op: "PAN_ELIGIBILITY_SEND", fields, status: { clientOrderId } })
      if (sent.kind === "reply") {
        return applyChange(container, payout, { actor, event: `PAN eligibility acknowledged (gateway order ${orderIdOf(sent.reply) ?? "?"})`, gateway: gatewayAnswer(sent.reply) })
      }
      if (sent.kind === "shown") {
        // its outcome is taken by settleEligibility, the one writer that moves a payout on from a check
        return applyChange(container, payout, { actor, event: "PAN eligibility reply lost; STATUS shows the check", gateway: gatewayAnswer(sent.status) })
      }
      // Not shown by STATUS (yet): maybe sent. Never asked again under a new id; reconciliation asks STATUS later.
      return applyChange(container, payout, { actor, event: "PAN eligibility reply lost and STATUS does not show it yet; left for reconciliation (never re-sent)" })
    } catch (e) {
      if (reachOf(e) === "maybe-sent") {
        return applyChange(container, payout, { actor, event: "PAN eligibility: reply lost and STATUS unavailable; left for reconciliation (never re-sent)", gateway: errorAnswer(e) })
      }
      const ge = e as GatewayError
      return applyChange(container, payout, {
        actor, event: `PAN eligibility ${reachOf(e) === "answered" ? "refused by the gateway" : "not sent"}: no payout request was sent`, status: "failed",
        patch: { eligibility: null, error_code: ge.code ?? null, error_message: `The card check (PAN eligibility) was refused: ${(ge.gatewayMessage ?? ge.message).slice(0, 800)}. No payout request was sent.` } as Partial<PayoutRow>,
        gateway: errorAnswer(e),
      })
    }
  })
}

/** STATUS of the check now; the payout follows it. A check the gateway never got is given up after NOT_FOUND_MS. */
export async function refreshEligibility(container: MedusaContainer, payout: PayoutRow, actor: string, how: string): Promise<PayoutRow> {
  return withClient(container, payout, async (client) => {
    let reply: StatusReply
    try {
      reply = await client.request("STATUS", statusFields({ clientOrderId: eligibilityClientOrderId(payout) }))
    } catch (e) {
      if (isNotFound(e) && Date.now() - new Date(payout.created_at).getTime() > NOT_FOUND_MS) {
        return applyChange(container, payout, {
          actor, event: "the gateway knows no PAN eligibility check for this payout: nothing was sent", status: "failed",
          patch: { eligibility: null, error_message: "The card check (PAN eligibility) never reached the gateway; no payout request was sent. Create the payout again." } as Partial<PayoutRow>,
        })
      }
      if (isNotFound(e)) return payout
      throw e
    }
    return applyEligibility(container, payout, reply, actor, how)
  })
}

/** A check the gateway does not know after this long never reached it. */
export const NOT_FOUND_MS = 10 * 60_000

/** The destination to send an eligible payout to: the saved card from its row, a typed card from memory. */
export function destinationAfterCheck(payout: PayoutRow): PayoutDestinationInput | undefined {
  if (payout.destination_type === "saved_card" && payout.saved_card_id) return { type: "saved_card", card_id: payout.saved_card_id }
  return takeHeldDestination(payout.id)
}

/** Words for an eligible typed-card payout whose number is no longer held (expired, or another process). */
export const CARD_NOT_HELD =
  "The card was found eligible after its number was dropped from memory (it is never stored): no payout request was sent. Create the payout again with the card number."

/**
 * The one place a check's outcome moves a payout on, under the payout lock: read again; unless still
 * `eligibility_checking`, nothing to do (another writer settled it). Else the check's STATUS (or the reply just read),
 * and on the transition to eligible, in the same lock hold, the payout's own request (gateway-calls.ts sendInitial):
 * only the writer that makes the transition sends, so a callback and the send step's poll can never both send.
 * `destination`: the one the send step still holds; else the saved card, or the typed card held in memory.
 */
export async function settleEligibility(
  container: MedusaContainer,
  payoutId: string,
  actor: string,
  how: string,
  destination?: PayoutDestinationInput,
): Promise<PayoutRow> {
  return withPayoutLock(container, payoutId, () => settleEligibilityLocked(container, payoutId, actor, how, destination))
}

/** settleEligibility for a caller that already holds the payout lock (the reconciliation workflow). */
export async function settleEligibilityLocked(
  container: MedusaContainer,
  payoutId: string,
  actor: string,
  how: string,
  destination?: PayoutDestinationInput,
): Promise<PayoutRow> {
  const fresh = (await getPayout(container, payoutId)) as PayoutRow
  if (fresh.status !== "eligibility_checking") return fresh
  const after = await refreshEligibility(container, fresh, actor, how)
  if (after.status !== "pending") return after
  const dest = destination ?? destinationAfterCheck(after)
  if (!dest) {
    return applyChange(container, after, { actor, event: "card number no longer held: nothing sent", status: "failed", patch: { error_message: CARD_NOT_HELD } })
  }
  takeHeldDestination(after.id)
  return sendInitial(container, after, dest, actor)
}

/**
 * Which existing payment session a payment link resumes instead of starting another (one intent, one client order
 * id): a second tab, a double submit or a shopper coming back gets the same hosted page as long as that page can
 * still be paid for exactly what the collection asks. A new session (a new client order id) is made only when the
 * old one certainly took nothing: declined, canceled, or never sent. Pure; pay-link.ts has already asked STATUS for
 * every session that may have been paid (settle first), so "pending" here means the gateway said not paid yet — or
 * could not be asked, and then the old page is the only safe answer.
 */
import { toMinor } from "../checkout/amounts"

export interface LinkSession {
  id: string
  provider_id: string
  status: string
  amount: unknown
  data?: Record<string, unknown> | null
}

export type ResumeDecision =
  | { kind: "reuse"; sessionId: string; redirectUrl: string }
  /** a saved-card session of the same card: charged again only through its own one-intent rule */
  | { kind: "reuse_saved_card"; sessionId: string }
  | { kind: "new" }
  /** a session that may hold money but cannot be resumed for what is asked now (another amount, provider or card) */
  | { kind: "busy"; sessionId: string }

const OPEN = new Set(["pending", "requires_more", "pending_authorization"])

const sameAmount = (s: LinkSession, amountMinor: bigint, currency: string) => {
  try {
    return toMinor(s.amount as string, currency) === amountMinor
  } catch {
    return false
  }
}

/** The session reached the gateway (or may have): it has a gateway order or an unknown outcome. */
export const reachedGateway = (s: LinkSession) => !!s.data?.orderId || s.data?.gatewayStatus === "unknown"

/**
 * Pure. `want`: the provider the shopper pays with and, for a saved card, its id. `sessions`: the collection's
 * sessions of this plugin, as they are after settling.
 */
export function resumeDecision(
  sessions: LinkSession[],
  want: { providerId: string; cardId?: string },
  amountMinor: bigint,
  currency: string
): ResumeDecision {
  for (const s of sessions) {
    if (!OPEN.has(s.status)) continue // declined / canceled: took nothing; authorized ones made the link "paid"
    const data = s.data ?? {}
    const fits = s.provider_id === want.providerId && sameAmount(s, amountMinor, currency)
    if (typeof data.card_id === "string") {
      if (fits && want.cardId === data.card_id) return { kind: "reuse_saved_card", sessionId: s.id }
      if (reachedGateway(s)) return { kind: "busy", sessionId: s.id }
      continue
    }
    if (!want.cardId && fits && data.flow === "hosted" && typeof data.redirectUrl === "string" && data.redirectUrl) {
      return { kind: "reuse", sessionId: s.id, redirectUrl: data.redirectUrl }
    }
    // a page for another amount or provider that may have been paid meanwhile: pay-link.ts asked STATUS (pending),
    // so replacing it is what Medusa does on a cart; the orphaned-payment rule gives back a page paid after that.
  }
  return { kind: "new" }
}

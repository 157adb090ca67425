/**
 * client_orderid <-> Medusa payment session.
 *
 * The gateway's merchant order id is derived from the session, never random, so that a lost response can be
 * resolved by asking STATUS for it and a callback leads back to its session (brief, shared contract):
 *   attempt 1  → the session id itself            ("payses_01H…")
 *   attempt n≥2 → "<session id>-a<n>"              (direct flow: a new card after a decline needs a new order)
 * Capture, void and return act on an existing gateway order, so they reuse that order's client_orderid.
 */

const ATTEMPT_SUFFIX = /^(.+)-a([0-9]+)$/

export function clientOrderIdFor(sessionId: string, attempt = 1): string {
  if (!sessionId) {
    throw new Error("PaynetEasy: cannot derive client_orderid without a payment session id")
  }
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new Error(`PaynetEasy: attempt must be a positive integer (got ${attempt})`)
  }
  return attempt === 1 ? sessionId : `${sessionId}-a${attempt}`
}

/** Parses a client_orderid back into its session id and attempt; undefined when it is not one of ours. */
export function parseClientOrderId(clientOrderId: string | undefined | null): { sessionId: string; attempt: number } | undefined {
  const value = (clientOrderId ?? "").trim()
  if (!value.startsWith("payses_")) {
    return undefined
  }
  const match = ATTEMPT_SUFFIX.exec(value)
  if (match) {
    const attempt = Number(match[2])
    return attempt >= 2 ? { sessionId: match[1], attempt } : undefined
  }
  return /^payses_[A-Za-z0-9]+$/.test(value) ? { sessionId: value, attempt: 1 } : undefined
}

/** The Medusa payment session id a client_orderid belongs to (callbacks use this); undefined when not ours. */
export function sessionIdFromClientOrderId(clientOrderId: string | undefined | null): string | undefined {
  return parseClientOrderId(clientOrderId)?.sessionId
}

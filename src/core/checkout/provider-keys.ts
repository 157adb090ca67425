/**
 * The one table of session-data keys only the provider writes (issue 49, defect 3), and the one function every path
 * that starts a session uses to drop them from what the storefront sent.
 *
 * Medusa stores a session's data as `{ ...storefront data, ...provider output }` (payment-module.js
 * createPaymentSession), so a key the storefront wrote survives unless the provider's output writes it as null. A
 * storefront-written `voided: true` made the provider's cancel a no-op; forged `captures` and `refunds` showed in the
 * order panel and reconciliation; a forged `orderId` would have STATUS ask about another shopper's order. Paths:
 * hosted and direct (checkout.ts startSession), saved card and off-session (saved-card-payment.ts), a renewal's
 * recorded charge (recurring-charge-payment.ts). The table's unit test checks that every key of the session-data
 * schema is in it, so a new key is covered by construction.
 */

/** Every key of our part of session / payment data (session-data.ts and the saved-card and renewal keys). */
export const PROVIDER_ONLY_KEYS = [
  // the session's identity and terms (also always written by the provider at start)
  "session_id", "clientOrderId", "attempt", "flow", "transactionType", "amount", "currency", "storefrontReturnUrl",
  // what the gateway answered: ids, statuses, the ledger, outcomes
  "orderId", "gatewayStatus", "redirectUrl", "nextAction", "captures", "refunds", "voided", "voidEntry", "error", "replyMismatch",
  // Medusa has not written the provider's last money answer back yet (payment-ledger.ts)
  "ledgerWriteBack",
  // a saved-card session's owner (the card id itself is the storefront's choice, checked against the owner)
  "card_owner",
  // a renewal's charge row
  "recurring_charge_id",
] as const

export type ProviderOnlyKey = (typeof PROVIDER_ONLY_KEYS)[number]

/** `{ key: null }` for each provider-only key the storefront's data holds: spread it into the provider's output. */
export function providerKeysCleared(data: Record<string, unknown> | undefined): Record<string, null> {
  const out: Record<string, null> = {}
  for (const k of PROVIDER_ONLY_KEYS) if (data && k in data) out[k] = null
  return out
}

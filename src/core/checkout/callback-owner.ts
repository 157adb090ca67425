/**
 * Proof that a gateway order is this store's own, for the day Medusa has forgotten its payment session.
 *
 * Why: Medusa hard-deletes a payment session when a new one is made on the same collection (the cart changed, a second
 * click), while the shopper may still pay on the old hosted page. The callback that then arrives names a session
 * nobody has. Its `control` proves the gateway sent it for our merchant account, not that this store registered the
 * order: an account can be shared with another shop whose callbacks the back office points here. So the
 * `server_callback_url` of every payment the provider registers carries a tag, an HMAC of the client_orderid under
 * the registration's control key (labelled for this plugin), and the gateway appends its own parameters to that URL
 * (gateway notes §7, "Customizable callback URL"): a callback that brings back the tag of its own client_orderid is
 * about a payment this plugin registered. Only a holder of the control key can make one; the tag itself is no secret.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { traceToken } from "../telemetry/otel"

/** The query parameter of our own callback URL that carries the tag (the gateway's parameters are appended after it). */
export const OWNER_PARAM = "pne_owner"

const LABEL = "medusa-payment-payneteasy/callback-owner/v1:"

/** The tag of a client_orderid: base64url of 18 bytes of HMAC-SHA256 (letters mostly, so no log scrubber masks it). */
export function ownerTag(controlKey: string, clientOrderId: string): string {
  return createHmac("sha256", controlKey).update(LABEL + clientOrderId).digest().subarray(0, 18).toString("base64url")
}

/**
 * The query parameter that carries the trace context of the request that registered the payment, while it is traced
 * (core/telemetry/otel.ts `traceToken`): the gateway brings it back with every callback of the order, the callback log
 * keeps it in `params`, and the callback's processing, later and in the worker, links to that request's span
 * (core/callbacks/processing-telemetry.ts). Not set when nothing is traced, so the URL is then what it always was.
 */
export const TRACE_PARAM = "pne_trace"

/** `{callbackUrl}?pne_owner=<tag>` (or `&pne_owner=` when the URL has a query already), `&pne_trace=…` while traced. */
export function ownedCallbackUrl(callbackUrl: string, controlKey: string, clientOrderId: string): string {
  const sep = callbackUrl.includes("?") ? "&" : "?"
  const trace = traceToken()
  return `${callbackUrl}${sep}${OWNER_PARAM}=${ownerTag(controlKey, clientOrderId)}${trace ? `&${TRACE_PARAM}=${trace}` : ""}`
}

/** Whether `params` carry the tag of their client_orderid under `controlKey` (compared in constant time). */
export function carriesOwnerTag(controlKey: string, clientOrderId: string, params: Record<string, unknown> | null | undefined): boolean {
  const given = params?.[OWNER_PARAM]
  if (typeof given !== "string" || given === "") return false
  const expected = Buffer.from(ownerTag(controlKey, clientOrderId))
  const actual = Buffer.from(given)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/**
 * THE rule for "did the request reach the gateway?", for every money action of the plugin (checkout hosted and
 * direct, saved-card payment, admin rebill, capture / refund / void, payouts, recurring set-up, card verification).
 * No other file decides it: callers branch on `reachOf(error)` (or `neverLeft` / `maybeSent`), never on error classes;
 * money requests go through money-request.ts `sendMoneyRequest`, which does.
 *
 * - `answered`: the gateway itself answered the request with a refusal (HTTP 400 / `validation-error`, HTTP 401 / 403,
 *   or a readable `type=error` reply below 500). It made nothing of it: the caller may treat it as refused.
 * - `not-sent`: certainly never left (`neverLeft`): refused by the client before writing (GatewayInputError,
 *   GatewayConfigError), or a transport failure before the connection was made — refused connection, DNS failure,
 *   connect timeout, TLS handshake (GatewayTransportError without `indeterminate`). The only case in which the same
 *   money request may be sent again.
 * - `maybe-sent`: everything else. A lost reply (GatewayTransportError with `indeterminate`), an unreadable 2xx
 *   (GatewayProtocolError: the gateway may have processed it and only its answer is garbled), an HTTP 5xx (may come
 *   after processing), and any error we do not know. It is settled only by a STATUS that shows the request
 *   (money-request.ts); a STATUS that does not show it yet leaves it pending — never a re-send, under the same id or a
 *   new one.
 */
import {
  GatewayAuthError,
  GatewayConfigError,
  GatewayInputError,
  GatewayServerError,
  GatewayTransportError,
  GatewayValidationError,
} from "../../gateway"

export type Reach = "answered" | "not-sent" | "maybe-sent"

export function reachOf(e: unknown): Reach {
  if (e instanceof GatewayTransportError) return e.indeterminate ? "maybe-sent" : "not-sent"
  if (e instanceof GatewayInputError || e instanceof GatewayConfigError) return "not-sent"
  if (e instanceof GatewayValidationError || e instanceof GatewayAuthError) return "answered"
  if (e instanceof GatewayServerError) return e.httpStatus !== undefined && e.httpStatus < 500 ? "answered" : "maybe-sent"
  // GatewayProtocolError, a bare GatewayError ("unexpected failure"), or anything else: we cannot tell.
  return "maybe-sent"
}

/** The request may have been processed although we have no usable reply: settle it by STATUS, never re-send blindly. */
export const maybeSent = (e: unknown): boolean => reachOf(e) === "maybe-sent"

/** Nothing exists at the gateway for this request: it answered with a refusal, or it was never sent. */
export const certainlyNothingMade = (e: unknown): boolean => reachOf(e) !== "maybe-sent"

/** The request certainly never left this process (so it made nothing and may be sent again): refused connection, DNS
 * failure, connect timeout, refused by the client before writing. */
export const neverLeft = (e: unknown): boolean => reachOf(e) === "not-sent"

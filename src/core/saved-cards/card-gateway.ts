/**
 * Saved cards at the gateway: the three conversations a card reference needs, with the reliability rules of
 * gateway-ops.ts.
 *
 * - `tokenizeCard`: create-card-ref for a finished, approved order (v4 / RSA-SHA256 when the registration has a
 *   private key, else v2 with the control checksum), then get-card-info for what may be shown (brand, BIN, last
 *   four, expiry, printed name). The gateway answers the same card-ref-id for the same order, so a lost reply is
 *   resolved by asking once more — it cannot create a second reference.
 * - `rebillCard`: make-rebill of a card reference for an exact amount, sent once through core/connection/money-request.ts
 *   (a lost reply → STATUS for the same client_orderid, never a re-send), then STATUS until decisive. When the rebill
 *   may have reached the gateway but no STATUS shows it (not found YET: a gateway still processing it shows nothing),
 *   the result is `unknown`, never a failure and never "not sent": the card may have been charged.
 *
 * The card-ref-id is returned to the caller (backend only); nothing here logs or stores it. No PAN or CVV ever passes
 * through: a cvv2 for a rebill goes straight into the request fields and is not kept.
 */
import { GatewayError, GatewayTransportError, type PaynetEasyClient } from "../../gateway"
import { isNotFound, maybeSent, pollStatus, sendMoneyRequest, type StatusReply } from "../connection"
import { cardInfoFields, cardRefFields, rebillFields, type Rebill } from "../../gateway/requests"
import { cardInfoOf, cardRefIdOf, orderIdOf } from "../../gateway/replies"

export type CardDetails = {
  brand: string | null
  bin: string | null
  last4: string | null
  exp_month: string | null
  exp_year: string | null
  holder: string | null
}

export type CardReference = CardDetails & { card_ref_id: string; card_ref_version: "v2" | "v4" }

const orNull = (v: string | undefined) => (v === undefined || v.trim() === "" ? null : v.trim())

/** create-card-ref (v4 when `useV4`) for an approved gateway order. */
export async function createCardReference(
  client: PaynetEasyClient,
  useV4: boolean,
  order: { clientOrderId: string; orderId: string }
): Promise<{ card_ref_id: string; card_ref_version: "v2" | "v4" }> {
  const fields = cardRefFields(order)
  const send = () => (useV4 ? client.request("CARDREF_V4", fields) : client.request("CARDREF", fields))
  let reply
  try {
    reply = await send()
  } catch (e) {
    // The gateway gives one reference per order: asking again after a reply that may have been lost (or one that was
    // never sent) returns the same one.
    if (!(maybeSent(e) || e instanceof GatewayTransportError)) throw e
    reply = await send()
  }
  return { card_ref_id: cardRefIdOf(reply)!, card_ref_version: useV4 ? "v4" : "v2" }
}

/** get-card-info: the displayable details of a card reference (never the number). */
export async function readCardInfo(client: PaynetEasyClient, cardRefId: string): Promise<CardDetails> {
  const info = cardInfoOf(await client.request("CARDINFO", cardInfoFields(cardRefId)))
  const month = orNull(info.expMonth)
  return {
    brand: orNull(info.brand),
    bin: orNull(info.bin),
    last4: orNull(info.lastFour),
    exp_month: month && /^\d$/.test(month) ? `0${month}` : month,
    exp_year: orNull(info.expYear),
    holder: orNull(info.holder),
  }
}

export async function tokenizeCard(
  client: PaynetEasyClient,
  useV4: boolean,
  order: { clientOrderId: string; orderId: string }
): Promise<CardReference> {
  const ref = await createCardReference(client, useV4, order)
  return { ...ref, ...(await readCardInfo(client, ref.card_ref_id)) }
}

/** make-rebill's request in domain terms (the gateway's builder, src/gateway/requests.ts, spells it). */
export type RebillRequest = Rebill

export type RebillResult =
  | { kind: "status"; orderId?: string; status: StatusReply }
  /**
   * the gateway may have processed the rebill, but nothing said how it ended: its reply was lost and no STATUS shows
   * it (not found yet, or failing), or it was accepted and every STATUS after it failed. `reason` names the failure (a
   * scrubbed gateway message). The charge stays pending: STATUS on the same client order id settles it later.
   */
  | { kind: "unknown"; orderId?: string; reason: string }

/**
 * make-rebill once; the decisive STATUS (or the last one within the poll budget). Throws only when the gateway refused
 * the rebill itself or it certainly never left (core/connection/reach.ts): then nothing was charged.
 */
export async function rebillCard(client: PaynetEasyClient, r: RebillRequest): Promise<RebillResult> {
  const sent = await sendMoneyRequest(client, { op: "REBILL", fields: rebillFields(r), status: { clientOrderId: r.clientOrderId } })
  if (sent.kind === "pending") return { kind: "unknown", reason: sent.reason }
  const orderId = orderIdOf(sent.kind === "reply" ? sent.reply : sent.status)
  try {
    const status = await pollStatus(client, { clientOrderId: r.clientOrderId, orderId })
    return { kind: "status", orderId: orderId ?? orderIdOf(status), status }
  } catch (e) {
    // The gateway has the rebill (its reply, or STATUS after a lost one, said so): a failing STATUS cannot undo it.
    if (e instanceof GatewayError) return { kind: "unknown", orderId, reason: e.message }
    throw e
  }
}

/** STATUS for a rebill we may have sent before (resolving a lost reply first); undefined when the gateway has none. */
export async function rebillStatus(client: PaynetEasyClient, clientOrderId: string, orderId?: string): Promise<StatusReply | undefined> {
  try {
    return await pollStatus(client, { clientOrderId, orderId })
  } catch (e) {
    if (isNotFound(e)) return undefined
    throw e
  }
}

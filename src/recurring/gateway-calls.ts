/**
 * create-recurring-payment (v4, RSA-SHA256) with the reliability rule every money-moving call here follows: sent once;
 * a lost or unreadable reply is resolved by STATUS for the same `client-orderid` (our row id), never by a blind
 * re-send. STATUS that names the order gives its recurring-payment-id; STATUS that does not know the client-orderid
 * means the request never arrived, so it is sent again once; anything else cannot be told and is returned as
 * `unknown` for a person to check at the gateway (the row becomes needs_attention).
 *
 * The card travels as the card-ref-id from create-card-ref (saved-cards/card-gateway.ts); it is never logged here.
 */
import { GatewayTransportError, type PaynetEasyClient } from "../gateway"
import { isNotFound, reachOf, sendOnce } from "../gateway-adapter"
import type { RecurringSchedule } from "./schedule"

export type RecurringRequest = {
  clientOrderId: string
  cardRefId: string
  /** major units, decimal string */
  amount: string
  currency: string
  schedule: RecurringSchedule
  description: string
  serverCallbackUrl: string
  payer: { email?: string; firstName?: string; lastName?: string; country?: string; city?: string; zip?: string; address1?: string; ip?: string }
}

export type RecurringResult =
  | { kind: "created"; recurringPaymentId: string }
  | { kind: "refused"; message: string }
  | { kind: "unknown"; message: string }

const MAX_SENDS = 2

export async function createRecurringPayment(client: PaynetEasyClient, r: RecurringRequest): Promise<RecurringResult> {
  const fields = {
    "client-orderid": r.clientOrderId,
    amount: r.amount,
    currency: r.currency,
    period: r.schedule.period,
    interval: String(r.schedule.interval),
    cardrefid: r.cardRefId,
    order_desc: r.description,
    server_callback_url: r.serverCallbackUrl,
    email: r.payer.email,
    "first-name": r.payer.firstName,
    "last-name": r.payer.lastName,
    country: r.payer.country,
    city: r.payer.city,
    "zip-code": r.payer.zip,
    address1: r.payer.address1,
    "customer-ip": r.payer.ip,
  }
  for (let send = 1; send <= MAX_SENDS; send++) {
    let sent
    try {
      sent = await sendOnce(client, "CREATE_RP_V4", fields, { clientOrderId: r.clientOrderId })
    } catch (e) {
      // Whether it reached the gateway is the adapter's rule (gateway-adapter/reach.ts). Maybe sent, and STATUS could
      // not settle it (sendOnce's UnresolvedLostReply): "unknown", for a person to check. Never sent for want of a
      // connection: like "absent", one more send is safe. Refused by the gateway, or by the client before sending:
      // nothing was made, and sending it again would not help.
      const reach = reachOf(e)
      if (reach === "maybe-sent") {
        return { kind: "unknown", message: `STATUS could not tell whether the recurring payment exists: ${(e as Error).message}` }
      }
      if (reach === "not-sent" && e instanceof GatewayTransportError) continue
      return { kind: "refused", message: (e as Error).message }
    }
    if (sent.kind === "reply") return { kind: "created", recurringPaymentId: sent.reply["recurring-payment-id"] }
    if (sent.kind === "adopted") {
      const id = (sent.status as Record<string, unknown>)["recurring-payment-id"]
      if (typeof id === "string" && id) return { kind: "created", recurringPaymentId: id }
      return { kind: "unknown", message: `the reply was lost; STATUS knows ${r.clientOrderId} (${sent.status.status}) but names no recurring-payment-id` }
    }
    // absent: the gateway never received it; one more send is safe
  }
  return { kind: "unknown", message: "the gateway did not answer and STATUS does not know the request: nothing was created; retry later" }
}

/**
 * After a crash between sending and recording: what the gateway has for our client-orderid. `absent` = it never
 * received the request (safe to send); `unknown` = it cannot be told now.
 */
export async function findRecurringPayment(client: PaynetEasyClient, clientOrderId: string): Promise<RecurringResult | { kind: "absent" }> {
  try {
    const status = await client.request("STATUS", { client_orderid: clientOrderId })
    const id = (status as Record<string, unknown>)["recurring-payment-id"]
    if (typeof id === "string" && id) return { kind: "created", recurringPaymentId: id }
    return { kind: "unknown", message: `STATUS knows ${clientOrderId} (${status.status}) but names no recurring-payment-id` }
  } catch (e) {
    if (isNotFound(e)) return { kind: "absent" }
    return { kind: "unknown", message: `STATUS could not tell whether the recurring payment exists: ${(e as Error).message}` }
  }
}

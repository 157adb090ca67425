/**
 * create-recurring-payment (v4, RSA-SHA256) with the reliability rule every money-moving call here follows: sent once;
 * a lost or unreadable reply is resolved by STATUS for the same `client-orderid` (our row id), never by a blind
 * re-send. STATUS that names the order gives its recurring-payment-id; STATUS that does not know the client-orderid
 * means the request never arrived, so it is sent again once; anything else cannot be told and is returned as
 * `unknown` for a person to check at the gateway (the row becomes needs_attention).
 *
 * The card travels as the card-ref-id from create-card-ref (core/saved-cards/card-gateway.ts); it is never logged here.
 *
 * Stopping a schedule (update-recurring-payment with today's finish date, gateway/recurring-update.ts) follows the same
 * rule with its own `client-orderid` (one per stop intent): confirmed only by the gateway's reply or by STATUS on
 * that client-orderid; a refusal is reported with the gateway's message; anything else is `unknown`.
 */
import { GatewayTransportError, stopRecurringPaymentFields, type PaynetEasyClient, type StopRecurringPayment } from "../../gateway"
import { isNotFound, reachOf, sendOnce, type StatusReply } from "../connection"
import { createRecurringPaymentFields, statusFields, type RecurringPayment } from "../../gateway/requests"
import { errorMessageOf, recurringPaymentIdOf } from "../../gateway/replies"
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
  payer: RecurringPayment["payer"]
}

export type RecurringResult =
  | { kind: "created"; recurringPaymentId: string }
  | { kind: "refused"; message: string }
  | { kind: "unknown"; message: string }

const MAX_SENDS = 2

/**
 * What a failed send leaves, by the adapter's rule (core/connection/reach.ts). Maybe sent, and STATUS could not settle
 * it (sendOnce's UnresolvedLostReply): "unknown", for a person to check. Never sent for want of a connection: like
 * "absent", one more send is safe ("retry"). Refused by the gateway, or by the client before sending: nothing was made,
 * and sending it again would not help ("refused").
 */
function afterFailedSend(e: unknown): "unknown" | "retry" | "refused" {
  const reach = reachOf(e)
  if (reach === "maybe-sent") return "unknown"
  if (reach === "not-sent" && e instanceof GatewayTransportError) return "retry"
  return "refused"
}

export async function createRecurringPayment(client: PaynetEasyClient, r: RecurringRequest): Promise<RecurringResult> {
  const fields = createRecurringPaymentFields({
    clientOrderId: r.clientOrderId,
    cardRefId: r.cardRefId,
    amount: r.amount,
    currency: r.currency,
    period: r.schedule.period,
    interval: r.schedule.interval,
    description: r.description,
    callbackUrl: r.serverCallbackUrl,
    payer: r.payer,
  })
  for (let send = 1; send <= MAX_SENDS; send++) {
    let sent
    try {
      sent = await sendOnce(client, "CREATE_RP_V4", fields, { clientOrderId: r.clientOrderId })
    } catch (e) {
      const next = afterFailedSend(e)
      if (next === "unknown") {
        return { kind: "unknown", message: `STATUS could not tell whether the recurring payment exists: ${(e as Error).message}` }
      }
      if (next === "retry") continue
      return { kind: "refused", message: (e as Error).message }
    }
    if (sent.kind === "reply") return { kind: "created", recurringPaymentId: recurringPaymentIdOf(sent.reply)! }
    if (sent.kind === "adopted") {
      const id = recurringPaymentIdOf(sent.status)
      if (id) return { kind: "created", recurringPaymentId: id }
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
    const status = await client.request("STATUS", statusFields({ clientOrderId }))
    const id = recurringPaymentIdOf(status)
    if (id) return { kind: "created", recurringPaymentId: id }
    return { kind: "unknown", message: `STATUS knows ${clientOrderId} (${status.status}) but names no recurring-payment-id` }
  } catch (e) {
    if (isNotFound(e)) return { kind: "absent" }
    return { kind: "unknown", message: `STATUS could not tell whether the recurring payment exists: ${(e as Error).message}` }
  }
}

export type StopResult =
  | { kind: "stopped" }
  | { kind: "refused"; message: string }
  | { kind: "unknown"; message: string }

/** What a reply's or a STATUS's `status` says about a stop request: approved (or none, for a plain reply) = stopped. */
function stopOutcome(status: string | undefined, error: string | undefined, what: string): StopResult {
  const s = (status ?? "").trim().toLowerCase()
  if (s === "approved" || (s === "" && what === "the reply")) return { kind: "stopped" }
  if (s === "declined" || s === "error" || s === "filtered") return { kind: "refused", message: `${what} says ${s}${error ? `: ${error}` : ""}` }
  return { kind: "unknown", message: `${what} says ${s || "nothing"}, not final: a person must check the schedule at the gateway` }
}

const fromStatus = (st: StatusReply, clientOrderId: string) =>
  stopOutcome(st.status, errorMessageOf(st), `STATUS of ${clientOrderId}`)

/**
 * Stops a schedule at the gateway. `mayHaveBeenSent`: an earlier attempt with this client-orderid may have reached the
 * gateway (the process died, or its reply was lost), so STATUS is asked first; a request STATUS does not know is sent.
 */
export async function stopRecurringPayment(client: PaynetEasyClient, r: StopRecurringPayment, mayHaveBeenSent: boolean): Promise<StopResult> {
  if (mayHaveBeenSent) {
    try {
      return fromStatus(await client.request("STATUS", statusFields({ clientOrderId: r.clientOrderId })), r.clientOrderId)
    } catch (e) {
      if (!isNotFound(e)) return { kind: "unknown", message: `STATUS could not tell whether the gateway stopped the schedule: ${(e as Error).message}` }
    }
  }
  for (let send = 1; send <= MAX_SENDS; send++) {
    let sent
    try {
      sent = await sendOnce(client, "UPDATE_RP_V4", stopRecurringPaymentFields(r), { clientOrderId: r.clientOrderId })
    } catch (e) {
      const next = afterFailedSend(e)
      if (next === "unknown") {
        return { kind: "unknown", message: `STATUS could not tell whether the gateway stopped the schedule: ${(e as Error).message}` }
      }
      if (next === "retry") continue
      return { kind: "refused", message: (e as Error).message }
    }
    if (sent.kind === "reply") return stopOutcome(sent.reply.status, undefined, "the reply")
    if (sent.kind === "adopted") return fromStatus(sent.status, r.clientOrderId)
    // absent: the gateway never received it; one more send is safe
  }
  return { kind: "unknown", message: "the gateway did not answer and STATUS does not know the request: nothing was stopped; cancel again later" }
}

/**
 * create-recurring-payment (v4, RSA-SHA256) with the reliability rule every money-moving call follows
 * (core/connection/money-request.ts): sent once; a lost or unreadable reply is settled only by a STATUS for the same
 * `client-orderid` (our row id) that shows it, which gives its recurring-payment-id. A STATUS that does not know the
 * client-orderid YET is not "it never arrived" (a gateway still processing it shows nothing): `unknown`, for a
 * person to check at the gateway (the row becomes needs_attention; the admin's retry adopts it by STATUS). A request
 * that certainly never left (or that the client refused to send) made nothing: `unknown` too ("not sent"), so a person
 * can fix what stopped it and the admin's retry sends it. A refusal by the gateway is `refused`. No loop here re-sends.
 *
 * The card travels as the card-ref-id from create-card-ref (core/saved-cards/card-gateway.ts); it is never logged here.
 *
 * Stopping a schedule (update-recurring-payment with today's finish date, gateway/recurring-update.ts) follows the same
 * rule with its own `client-orderid` (one per stop intent): confirmed only by the gateway's reply or by STATUS on
 * that client-orderid; a refusal is reported with the gateway's message; anything else is `unknown`.
 */
import { stopRecurringPaymentFields, type PaynetEasyClient, type StopRecurringPayment } from "../../gateway"
import { isNotFound, neverLeft, sendMoneyRequest, type StatusReply } from "../connection"
import { createRecurringPaymentFields, statusFields, type RecurringPayment } from "../../gateway/requests"
import { errorMessageOf, recurringPaymentIdOf } from "../../gateway/replies"
import { parseGatewayStatus, type GatewayStatus } from "../../gateway/statuses"
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
  let sent
  try {
    sent = await sendMoneyRequest(client, { op: "CREATE_RP_V4", fields, status: { clientOrderId: r.clientOrderId } })
  } catch (e) {
    // certainly never left: nothing was created, and the row waits for a retry (needs_attention); refused: nothing made
    if (neverLeft(e)) {
      return { kind: "unknown", message: `not sent (${(e as Error).message}): nothing was created; retry the set-up` }
    }
    return { kind: "refused", message: (e as Error).message }
  }
  if (sent.kind === "reply") return { kind: "created", recurringPaymentId: recurringPaymentIdOf(sent.reply)! }
  if (sent.kind === "shown") {
    const id = recurringPaymentIdOf(sent.status)
    if (id) return { kind: "created", recurringPaymentId: id }
    return { kind: "unknown", message: `the reply was lost; STATUS knows ${r.clientOrderId} (${sent.status.status}) but names no recurring-payment-id` }
  }
  return { kind: "unknown", message: `the reply was lost and the gateway does not show the request yet (${sent.reason}); nothing was sent again` }
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

/** What each gateway status says about a stop request: every status named, so a new one does not compile without a row. */
export const STOP_OUTCOME = {
  approved: "stopped",
  declined: "refused",
  error: "refused",
  filtered: "refused",
  processing: "unknown",
  unknown: "unknown",
  chain_declined: "unknown",
  other: "unknown",
} as const satisfies Record<GatewayStatus, StopResult["kind"]>

/** What a reply's or a STATUS's `status` says about a stop request: approved (or none, for a plain reply) = stopped. */
export function stopOutcome(status: string | undefined, error: string | undefined, what: string): StopResult {
  const s = (status ?? "").trim().toLowerCase()
  if (s === "" && what === "the reply") return { kind: "stopped" }
  switch (STOP_OUTCOME[parseGatewayStatus(status)]) {
    case "stopped":
      return { kind: "stopped" }
    case "refused":
      return { kind: "refused", message: `${what} says ${s}${error ? `: ${error}` : ""}` }
    case "unknown":
      return { kind: "unknown", message: `${what} says ${s || "nothing"}, not final: a person must check the schedule at the gateway` }
  }
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
  let sent
  try {
    sent = await sendMoneyRequest(client, { op: "UPDATE_RP_V4", fields: stopRecurringPaymentFields(r), status: { clientOrderId: r.clientOrderId } })
  } catch (e) {
    return { kind: "refused", message: neverLeft(e) ? `not sent (${(e as Error).message}); cancel again to stop it` : (e as Error).message }
  }
  if (sent.kind === "reply") return stopOutcome(sent.reply.status, undefined, "the reply")
  if (sent.kind === "shown") return fromStatus(sent.status, r.clientOrderId)
  return { kind: "unknown", message: `the reply was lost and the gateway does not show the stop yet (${sent.reason}); nothing was sent again: cancel again later to ask STATUS` }
}

/**
 * Capture / return / void on an existing order: sent once, followed to a final status by its serial number, and —
 * when the reply is lost — judged against a STATUS snapshot taken just before sending.
 *
 * Gateway facts (notes §3/§4, sandbox api-replies.ts): STATUS describes the order's LATEST transaction
 * (`serial-number`, `transaction-type`, `status`); its `amount` is the order's amount — what is held or captured:
 * authorized − released − returned, so an approved return lowers it by the returned amount and a capture leaves it
 * unchanged. Only one follow-up runs at a time per order.
 *
 * Why the snapshot: "STATUS shows a capture" is not proof that OUR capture arrived — on a second partial capture
 * the latest transaction may still be the first one. After a lost reply (indeterminate transport error, or an
 * unreadable reply or a 5xx — core/connection reach.ts maybeSent):
 * - STATUS shows the snapshot's serial → our request created nothing: it is sent once more;
 * - STATUS shows a new serial of our kind → adopted once it agrees with the amount we asked for (amountAgrees);
 * - anything else (another kind, a disagreeing amount, no serial to compare, lost twice) → IndeterminateFollowUp.
 * A transaction still not final after the poll budget is returned with `pending: true` and its real status, for
 * reconciliation (src/core/checkout/session-data.ts pendingLedgerEntries) — it is not an error: the gateway may still approve it.
 */
import { type OperationResponse, type PaynetEasyClient, type RequestFields } from "../../gateway"
import { errorMessageOf, serialNumberOf, transactionTypeOf } from "../../gateway/replies"
import { isApproved } from "../../gateway/statuses"
import { toMinor } from "./amounts"
import { GatewayRefusal, IndeterminateFollowUp, wrap } from "./errors"
import { isFinal, isNotFound, pollStatus, statusFields, type StatusQuery, type StatusReply } from "../connection/gateway-ops"
import { maybeSent } from "../connection/reach"
import { idMismatch } from "./reply-match"
import { transactionTypeKey } from "./status-map"

export type FollowOp = "CAPTURE" | "RETURN" | "VOID"
export type FollowKind = "capture" | "reversal" | "void"
const KIND: Record<FollowOp, FollowKind> = { CAPTURE: "capture", RETURN: "reversal", VOID: "void" }

export interface FollowRequest {
  op: FollowOp
  /** the request, built by src/gateway/requests.ts followUpFields */
  fields: RequestFields
  query: StatusQuery
  /** The amount we ask for (major units) and its currency; undefined for a void or a full return. */
  amount?: string
  currency: string
}

export interface FollowOutcome {
  status: string
  serialNumber?: string
  /** The gateway has not decided yet; `status` is its real (non-final) status. */
  pending?: true
}

/** What a STATUS taken after a lost reply says about our request, compared with the snapshot taken before it. */
export function judgeLostReply(before: StatusReply, now: StatusReply, kind: FollowKind): "not-arrived" | "new" | "unclear" {
  const was = serialNumberOf(before)
  const is = serialNumberOf(now)
  if (!was || !is) return "unclear"
  if (was === is) return "not-arrived"
  return transactionTypeKey(transactionTypeOf(now)) === kind ? "new" : "unclear"
}

/** Whether an approved transaction's STATUS agrees with the amount we asked for (see the header for the facts). */
export function amountAgrees(kind: FollowKind, before: StatusReply, after: StatusReply, amount: string | undefined, currency: string): boolean {
  if (amount === undefined) return true // a void / full return names no amount
  try {
    const asked = toMinor(amount, currency)
    if (after.amount === undefined) return false
    const now = toMinor(after.amount, currency)
    if (now === asked) return true // a gateway that reports the transaction's own amount
    if (before.amount === undefined) return false
    const was = toMinor(before.amount, currency)
    return kind === "reversal" ? was - now === asked : kind === "capture" && was === now
  } catch {
    return false
  }
}

/** Sends the follow-up and returns its outcome; refusals and declines throw GatewayRefusal. */
export async function followUp(client: PaynetEasyClient, req: FollowRequest): Promise<FollowOutcome> {
  const kind = KIND[req.op]
  const snapshot = await status(client, req)
  for (let sent = 1; ; sent++) {
    let reply: OperationResponse<FollowOp>
    try {
      reply = await client.request(req.op, req.fields)
    } catch (e) {
      if (!maybeSent(e)) throw isNotFound(e) ? new GatewayRefusal(req.op, refusalReason(e)) : wrap(req.op, e)
      const now = await status(client, req).catch(() => {
        throw new IndeterminateFollowUp(req.op, req.query.orderId, "its STATUS could not be read either")
      })
      const verdict = judgeLostReply(snapshot, now, kind)
      if (verdict === "not-arrived" && sent === 1) continue
      if (verdict !== "new") {
        throw new IndeterminateFollowUp(req.op, req.query.orderId, verdict === "not-arrived"
          ? "it was lost twice without the gateway showing a new transaction"
          : `STATUS shows no new ${kind} transaction (latest: ${transactionTypeOf(now) ?? "?"} ${now.status ?? "?"})`)
      }
      return settle(client, req, kind, snapshot, serialNumberOf(now)!, true)
    }
    return settle(client, req, kind, snapshot, serialNumberOf(reply), false)
  }
}

async function settle(
  client: PaynetEasyClient, req: FollowRequest, kind: FollowKind, snapshot: StatusReply, serialNumber: string | undefined, adopted: boolean
): Promise<FollowOutcome> {
  const reply = aboutThisOrder(req, await pollStatus(client, { ...req.query, serialNumber }, isFinal))
  if (!isFinal(reply)) {
    return { status: reply.status ?? "processing", serialNumber: serialNumberOf(reply) ?? serialNumber, pending: true }
  }
  if (!isApproved(reply)) {
    throw new GatewayRefusal(req.op, errorMessageOf(reply)?.trim() || `${req.op.toLowerCase()} was ${reply.status}`)
  }
  if (adopted && !amountAgrees(kind, snapshot, reply, req.amount, req.currency)) {
    throw new IndeterminateFollowUp(req.op, req.query.orderId,
      `the new ${kind} the gateway shows does not match the ${req.amount} ${req.currency} we asked for`)
  }
  return { status: reply.status, serialNumber: serialNumberOf(reply) ?? serialNumber }
}

async function status(client: PaynetEasyClient, req: FollowRequest): Promise<StatusReply> {
  let reply: StatusReply
  try {
    reply = await client.request("STATUS", statusFields(req.query))
  } catch (e) {
    throw wrap("STATUS", e)
  }
  return aboutThisOrder(req, reply)
}

/** A STATUS about another transaction decides nothing (core/checkout/reply-match.ts): the outcome is unknown. */
function aboutThisOrder(req: FollowRequest, reply: StatusReply): StatusReply {
  const mismatch = idMismatch(reply, req.query)
  if (mismatch) throw new IndeterminateFollowUp(req.op, req.query.orderId, `its STATUS answered about another payment: ${mismatch}`)
  return reply
}

function refusalReason(e: unknown): string {
  return (e as { gatewayMessage?: string }).gatewayMessage || (e as Error).message
}

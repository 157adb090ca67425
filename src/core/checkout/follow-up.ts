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
 * the latest transaction may still be the first one. The request goes through core/connection/money-request.ts
 * (sent once, never again). After a lost reply (indeterminate transport error, or an unreadable reply or a 5xx —
 * core/connection reach.ts maybeSent):
 * - STATUS shows a new serial of our kind → adopted once it agrees with the amount we asked for (amountAgrees);
 * - STATUS still shows the snapshot's serial, or another kind, or cannot be read → NOT "it did not arrive": a gateway
 *   that has the request goes on processing it and shows it only when done (issue 49). The outcome is pending
 *   (`status: "unknown"`, no serial yet, `afterSerial` = the snapshot's serial, `sentAt`): Medusa keeps its Capture /
 *   Refund row, and reconciliation (workflows/payneteasy/reconcile-ledger.ts) asks STATUS on its backoff until a new
 *   transaction of our kind shows, flagging it for a person when the processing window passes;
 * - a disagreeing amount → IndeterminateFollowUp.
 * A transaction still not final after the poll budget is returned with `pending: true` and its real status, for
 * reconciliation (and so is one whose follow-up STATUS fails or answers about another payment once the request was
 * answered: it is at the gateway) (src/core/checkout/session-data.ts pendingLedgerEntries) — it is not an error: the gateway may still approve it.
 */
import { type OperationResponse, type PaynetEasyClient, type RequestFields } from "../../gateway"
import { errorMessageOf, serialNumberOf, transactionTypeOf } from "../../gateway/replies"
import { isApproved } from "../../gateway/statuses"
import { toMinor } from "./amounts"
import { GatewayRefusal, IndeterminateFollowUp, wrap } from "./errors"
import { isFinal, isNotFound, pollStatus, statusFields, type StatusQuery, type StatusReply } from "../connection/gateway-ops"
import { sendMoneyRequest } from "../connection/money-request"
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
  /** The gateway has not decided yet; `status` is its real (non-final) status, "unknown" when STATUS does not show it yet. */
  pending?: true
  /** Not shown by STATUS yet: the order's latest serial before we sent (reconciliation's "is it there now?"). */
  afterSerial?: string
  /** When the request whose reply was lost was sent (ISO): the processing window counts from here. */
  sentAt?: string
}

/**
 * What a STATUS taken after a lost reply says about our request, compared with the snapshot taken before it: "new"
 * (a new transaction of our kind), "not-shown-yet" (still the snapshot's serial: the gateway may still be processing
 * ours — NOT proof that it never arrived) or "unclear" (no serial to compare, or a new one of another kind).
 * Only "new" settles the request; the others leave it maybe-sent (pending).
 */
export function judgeLostReply(before: StatusReply, now: StatusReply, kind: FollowKind): "not-shown-yet" | "new" | "unclear" {
  const was = serialNumberOf(before)
  const is = serialNumberOf(now)
  if (!was || !is) return "unclear"
  if (was === is) return "not-shown-yet"
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

/** Sends the follow-up once and returns its outcome (pending when it may have been sent); refusals and declines throw GatewayRefusal. */
export async function followUp(client: PaynetEasyClient, req: FollowRequest): Promise<FollowOutcome> {
  const kind = KIND[req.op]
  const snapshot = await status(client, req)
  const sentAt = new Date().toISOString()
  let sent
  try {
    sent = await sendMoneyRequest(client, {
      op: req.op,
      fields: req.fields,
      status: req.query,
      shows: (now) => idMismatch(now, req.query) === undefined && judgeLostReply(snapshot, now, kind) === "new",
    })
  } catch (e) {
    // answered with a refusal, or certainly never left: nothing was made
    throw isNotFound(e) ? new GatewayRefusal(req.op, refusalReason(e)) : wrap(req.op, e)
  }
  if (sent.kind === "reply") return settle(client, req, kind, snapshot, serialNumberOf(sent.reply as OperationResponse<FollowOp>), false, sentAt)
  if (sent.kind === "shown") return settle(client, req, kind, snapshot, serialNumberOf(sent.status)!, true, sentAt)
  // maybe sent, not shown yet: pending for reconciliation, never sent again
  return { status: "unknown", pending: true, afterSerial: serialNumberOf(snapshot), sentAt }
}

async function settle(
  client: PaynetEasyClient, req: FollowRequest, kind: FollowKind, snapshot: StatusReply, serialNumber: string | undefined, adopted: boolean,
  sentAt: string
): Promise<FollowOutcome> {
  let reply: StatusReply
  try {
    reply = aboutThisOrder(req, await pollStatus(client, { ...req.query, serialNumber }, isFinal))
  } catch {
    // The request is at the gateway (answered, or shown by STATUS): a STATUS that fails now, or answers about another
    // payment, decides nothing about it. Pending for reconciliation, never an error: an error here made Medusa delete
    // its Refund / Capture row while the gateway moved the money (slow-gateway.spec.ts).
    // An answer that named no serial is found the way a lost reply is: the first transaction past the snapshot's.
    return serialNumber ? { status: "processing", serialNumber, pending: true } : { status: "processing", pending: true, afterSerial: serialNumberOf(snapshot), sentAt }
  }
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

/**
 * Operations on an existing order: CAPTURE, RETURN, VOID, STATUS and the 3-D Secure uploads. They carry the order's
 * client_orderid and orderid, which must name the same order of the same merchant. Rules (seed 1–6, 8):
 * - capture: only on an approved preauth; partial allowed; the sum of captures never exceeds the authorization;
 * - return: only when the initial transaction is approved (final success); partial allowed, never more than what
 *   remains; on an uncaptured preauth it releases the hold, otherwise it refunds captured money (type "reversal");
 * - void: no amount; only on an approved, unsettled sale/preauth; cancels everything still held or captured;
 * - one transaction at a time per order: a follow-up while another is processing is refused;
 * - 3DS uploads: the method result (threeDSCompInd Y/N/U) is recorded; a CRes/PaRes answers a pending challenge
 *   ("fail" fails it, any other non-empty value passes).
 */
import { Refusal, type Ctx } from "./api-context"
import { asyncReply, statusReply } from "./api-replies"
import { toMinor } from "./money"
import { initialTxn, latestTxn, type Order } from "./state"

/** The order named by orderid + client_orderid (spelled per operation), refused unless both agree. */
export function followUpOrder(c: Ctx): Order {
  const f = c.req.fields
  const cidField = c.req.op.clientOrderIdField ?? "client_orderid"
  const order = c.store.orders.get(f.orderid)
  if (!order || order.merchant.login !== c.merchant.login) throw new Refusal(`Unknown orderid: ${f.orderid}`, "orderid")
  if (order.clientOrderId !== f[cidField]) {
    throw new Refusal(`${cidField} does not match orderid ${f.orderid}`, cidField)
  }
  return order
}

function notBusy(order: Order): void {
  const tx = latestTxn(order)
  if (tx.status === "processing") {
    throw new Refusal(`Order ${order.orderid} has a ${tx.type} transaction still processing`, "orderid")
  }
}

function optionalAmount(c: Ctx, order: Order): bigint | undefined {
  const f = c.req.fields
  if (!f.amount) return undefined
  if (order.currency && f.currency.toUpperCase() !== order.currency) {
    throw new Refusal(`currency must be the order's currency (${order.currency})`, "currency")
  }
  const m = toMinor(f.amount, f.currency)
  if (!m.ok) throw new Refusal(m.message, "amount")
  if (m.minor <= 0n) throw new Refusal("amount must be greater than zero", "amount")
  return m.minor
}

export function capture(c: Ctx): Record<string, string | number> {
  const order = followUpOrder(c)
  notBusy(order)
  if (order.kind !== "preauth") throw new Refusal("Capture is allowed only on a preauth", "orderid")
  if (initialTxn(order).status !== "approved") throw new Refusal("Capture requires an approved preauth", "orderid")
  if (order.voided) throw new Refusal("The preauth was voided", "orderid")
  const remaining = order.authorizedMinor - order.capturedMinor - order.releasedMinor
  if (remaining <= 0n) throw new Refusal("Nothing left to capture on this preauth", "amount")
  const amount = optionalAmount(c, order) ?? remaining
  if (amount > remaining) throw new Refusal("Capture amount exceeds the authorized amount still available", "amount")
  const tx = c.engine.beginFollowUp(order, { type: "capture", operation: "CAPTURE", amountMinor: amount })
  return asyncReply(order, tx.serial)
}

export function refund(c: Ctx): Record<string, string | number> {
  const order = followUpOrder(c)
  notBusy(order)
  if (order.kind !== "sale" && order.kind !== "preauth") throw new Refusal("Return is not possible for this order type", "orderid")
  if (initialTxn(order).status !== "approved") {
    throw new Refusal("Return requires a transaction in a final successful status", "orderid")
  }
  if (order.voided) throw new Refusal("The order is voided; nothing left to return", "orderid")
  const releasesHold = order.kind === "preauth" && order.capturedMinor === 0n
  const remaining = releasesHold
    ? order.authorizedMinor - order.releasedMinor
    : order.capturedMinor - order.returnedMinor - order.chargedBackMinor
  if (remaining <= 0n) throw new Refusal("Nothing left to return on this order", "amount")
  const amount = optionalAmount(c, order) ?? remaining
  if (amount > remaining) throw new Refusal("Return amount exceeds the amount that remains", "amount")
  const tx = c.engine.beginFollowUp(order, { type: "reversal", operation: "RETURN", amountMinor: amount, releasesHold })
  return asyncReply(order, tx.serial)
}

export function voidOrder(c: Ctx): Record<string, string | number> {
  if (c.req.fields.amount !== undefined || c.req.fields.currency !== undefined) {
    throw new Refusal("Void does not accept an amount (partial void does not exist)", "amount")
  }
  const order = followUpOrder(c)
  notBusy(order)
  if (order.kind !== "sale" && order.kind !== "preauth") throw new Refusal("Void is not possible for this order type", "orderid")
  if (initialTxn(order).status !== "approved") throw new Refusal("Void requires an authorized transaction", "orderid")
  if (order.voided) throw new Refusal("The order is already voided", "orderid")
  if (order.settled) throw new Refusal("The transaction is settled; use return instead of void", "orderid")
  const tx = c.engine.beginFollowUp(order, { type: "void", operation: "VOID", amountMinor: null })
  return asyncReply(order, tx.serial)
}

export function status(c: Ctx): Record<string, string | number> {
  const f = c.req.fields
  let order: Order | undefined
  if (f.orderid) order = followUpOrder(c)
  else {
    order = c.store.findByClientOrderId(c.req.endpointKey, f.client_orderid)
    if (!order || order.merchant.login !== c.merchant.login) {
      throw new Refusal(`Unknown client_orderid: ${f.client_orderid}`, "client_orderid")
    }
  }
  const sn = f["by-request-sn"]
  if (sn) {
    const tx = order.txns.find((t) => t.serial === sn) // bounded by one order's transactions
    if (!tx) throw new Refusal(`Unknown by-request-sn: ${sn}`, "by-request-sn")
    return statusReply(c, order, tx, true)
  }
  return statusReply(c, order)
}

function threeDSOrder(c: Ctx): Order {
  const order = followUpOrder(c)
  const init = initialTxn(order)
  if (!order.card || init.status !== "processing" || latestTxn(order) !== init) {
    throw new Refusal("No 3-D Secure authentication is in progress for this order", "orderid")
  }
  return order
}

export function uploadMethodResult(c: Ctx): Record<string, string | number> {
  const ind = c.req.fields.threeDSCompInd
  if (ind !== "Y" && ind !== "N" && ind !== "U") throw new Refusal("threeDSCompInd must be Y, N or U", "threeDSCompInd")
  const order = threeDSOrder(c)
  order.threeDS = { pending: order.threeDS?.pending ?? false, ...order.threeDS, methodCompInd: ind }
  const meaning = ind === "Y" ? "completed" : ind === "N" ? "not completed within 10 s" : "method URL not provided"
  c.engine.note(order, `3DS Method result uploaded: threeDSCompInd=${ind} (${meaning})`)
  return asyncReply(order, latestTxn(order).serial)
}

function uploadChallengeResult(c: Ctx, field: "cRes" | "paRes", via: string): Record<string, string | number> {
  const order = threeDSOrder(c)
  if (!order.threeDS?.pending) throw new Refusal("No 3-D Secure challenge is pending for this order", "orderid")
  const value = c.req.fields[field]
  c.engine.threeDSAnswered(order, value.toLowerCase() !== "fail", via)
  return asyncReply(order, latestTxn(order).serial)
}

export const uploadCRes = (c: Ctx) => uploadChallengeResult(c, "cRes", "CRes upload")
export const uploadPaRes = (c: Ctx) => uploadChallengeResult(c, "paRes", "PaRes upload")

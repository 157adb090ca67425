/**
 * Parameters that tell the merchant how a transaction ended: the server callback (GET to server_callback_url /
 * notify_url, notes §7) and the final redirect (POST from the payer's browser to redirect_url, notes §8).
 * Both are signed control = sha1(status + orderid + client_orderid + control key). Names are the gateway's:
 * mostly underscores, a few hyphenated.
 */
import { callbackControl } from "./control-sum"
import { fromMinor } from "./money"
import type { Order, Txn } from "./state"

export const DESCRIPTOR = "PAYNETEASY SANDBOX"

function amountOf(order: Order, tx: Txn): string {
  return fromMinor(tx.amountMinor ?? order.amountMinor, order.currency)
}

/** Server callback parameters for a transaction that reached a final status. */
export function callbackParams(order: Order, tx: Txn): Record<string, string> {
  const p: Record<string, string> = {
    status: tx.status,
    merchant_order: order.clientOrderId,
    client_orderid: order.clientOrderId,
    orderid: order.orderid,
    type: tx.type,
    amount: amountOf(order, tx),
    currency: order.currency ?? "",
    descriptor: DESCRIPTOR,
    error_code: tx.error?.code ?? "",
    error_message: tx.error?.message ?? "",
    "processor-tx-id": `PNTEST-${order.orderid}`,
    "gate-partial-capture": "enabled",
    "gate-partial-reversal": "enabled",
  }
  if (tx.reasonCode !== undefined) {
    // a dispute's notification names its reason code and its transaction (so it confirms by serial in any order)
    p["reason-code"] = tx.reasonCode
    p["serial-number"] = tx.serial
  }
  if (tx.status === "approved") {
    p["approval-code"] = `SB${order.orderid.slice(-4)}`
    p["processor-rrn"] = `RRN${order.orderid}`
  }
  if (order.card) {
    p.name = order.card.holder
    p["card-holder-name"] = order.card.holder
    p["last-four-digits"] = order.card.lastFour
    p.bin = order.card.bin
    p["card-type"] = order.card.brand
  }
  if (order.payer.email) p.email = order.payer.email
  if (order.payer.phone) p.phone = order.payer.phone
  if (order.kind === "recurring-charge" && order.recurringPaymentId) p["recurring-payment-id"] = order.recurringPaymentId
  p.control = callbackControl(tx.status, order.orderid, order.clientOrderId, order.merchant.controlKey)
  if (order.merchantData !== undefined) p.merchantdata = order.merchantData
  return p
}

/** Final redirect parameters (gateway.md §8) for the order's current (latest) transaction. */
export function finalRedirectParams(order: Order): Record<string, string> {
  const tx = order.txns[order.txns.length - 1]
  const p: Record<string, string> = {
    status: tx.status,
    orderid: order.orderid,
    merchant_order: order.clientOrderId,
    client_orderid: order.clientOrderId,
    error_message: tx.error?.message ?? "",
    error_code: tx.error?.code ?? "",
    descriptor: DESCRIPTOR,
    "processor-tx-id": `PNTEST-${order.orderid}`,
    amount: amountOf(order, tx),
    type: tx.type,
    bin: order.card?.bin ?? "",
    "card-type": order.card?.brand ?? "",
    "last-four-digits": order.card?.lastFour ?? "",
    "card-holder-name": order.card?.holder ?? "",
  }
  if (order.payer.phone) p.phone = order.payer.phone
  p.control = callbackControl(tx.status, order.orderid, order.clientOrderId, order.merchant.controlKey)
  return p
}

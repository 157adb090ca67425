/**
 * Reply shapes (notes §3). Quirk kept on purpose: `paynet-order-id` is a JSON number in async replies and a string
 * in status-response (the real gateway's asymmetry, notes §2). Order ids start at 1000001, far below 2^53.
 */
import type { Ctx } from "./api-context"
import { fromMinor } from "./money"
import { DESCRIPTOR } from "./outcome-params"
import { initialTxn, latestTxn, netMinor, type Order, type Txn } from "./state"

export function asyncReply(order: Order, serial: string): Record<string, string | number> {
  return {
    type: "async-response",
    "serial-number": serial,
    "merchant-order-id": order.clientOrderId,
    "paynet-order-id": Number(order.orderid),
    "end-point-id": order.endpointId,
  }
}

export function pageUrl(c: Pick<Ctx, "origin" | "opts">, kind: "form" | "acs" | "result", token: string): string {
  return `${c.origin}${c.opts.prefix}/${kind}/${token}`
}

export function formReply(c: Ctx, order: Order, serial: string): Record<string, string | number> {
  return {
    type: "async-form-response",
    "serial-number": serial,
    "merchant-order-id": order.clientOrderId,
    "paynet-order-id": Number(order.orderid),
    "end-point-id": order.endpointId,
    "redirect-url": pageUrl(c, "form", order.pageToken),
  }
}

/**
 * The amount a status reports. For card payments (sale, preauth, rebill) after approval: money currently held or
 * captured on the order = authorized − released − returned − charged back (so a full return reports 0, a partial
 * capture of a preauth still reports the whole hold). Before approval, and for payouts, transfers and the like:
 * the requested amount. `initial-amount` always carries the requested amount.
 */
export function reportedAmountMinor(order: Order): bigint {
  const approved = initialTxn(order).status === "approved"
  return approved && (order.kind === "sale" || order.kind === "preauth") ? netMinor(order) : order.amountMinor
}

function stageOf(order: Order, tx: Txn): string {
  if (tx === initialTxn(order)) {
    if (order.hosted && !order.hosted.submitted) return `${tx.type}_form_waiting`
    if (order.threeDS?.pending) return `${tx.type}_3d_validating`
  }
  return `${tx.type}_${tx.status}`
}

/** 3-D Secure instructions for the payer: an auto-submitting form to the ACS page (the form the real gateway returns). */
export function threeDSHtml(acsUrl: string, order: Order): string {
  return (
    `<html><body onload="document.forms[0].submit()">` +
    `<form method="POST" action="${acsUrl}">` +
    `<input type="hidden" name="PaReq" value="SANDBOX-PAREQ-${order.orderid}">` +
    `<input type="hidden" name="MD" value="${order.orderid}">` +
    `<noscript><button type="submit">Continue to 3-D Secure</button></noscript>` +
    `</form></body></html>`
  )
}

/**
 * `bySerial`: the STATUS asked for one transaction (`by-request-sn`). A follow-up transaction (capture, reversal,
 * chargeback) then reports its own amount — "actual transaction amount" (notes §3) of that stage — which is how a
 * merchant can confirm the amount of a later event whose callback amount the control does not cover. A STATUS of
 * the order (no serial), and one for the initial transaction, report the order's amount as before.
 */
export function statusReply(c: Ctx, order: Order, tx: Txn = latestTxn(order), bySerial = false): Record<string, string | number> {
  const ownAmount = bySerial && tx !== initialTxn(order) && tx.amountMinor !== null ? tx.amountMinor : undefined
  const f: Record<string, string | number> = {
    type: "status-response",
    status: tx.status,
    "serial-number": tx.serial,
    "merchant-order-id": order.clientOrderId,
    "paynet-order-id": order.orderid,
    "transaction-type": tx.type,
    "order-stage": stageOf(order, tx),
    amount: fromMinor(ownAmount ?? reportedAmountMinor(order), order.currency),
    "initial-amount": fromMinor(order.amountMinor, order.currency),
    descriptor: DESCRIPTOR,
    "processor-tx-id": `PNTEST-${order.orderid}`,
  }
  if (order.currency) f.currency = order.currency
  if (tx.reasonCode !== undefined) {
    // a dispute: its reason code and when the gateway processed it
    f["reason-code"] = tx.reasonCode
    if (tx.finishedAt !== undefined) f["paynet-processing-date"] = new Date(tx.finishedAt).toISOString()
  }
  if (tx.error) {
    f["error-message"] = tx.error.message
    f["error-code"] = tx.error.code
  }
  if (tx === initialTxn(order) && order.threeDS?.pending) {
    const acs = pageUrl(c, "acs", order.pageToken)
    f.html = threeDSHtml(acs, order)
    if (c.opts.threeDSRedirectTo) f["redirect-to"] = acs
  }
  if (order.card) {
    f["last-four-digits"] = order.card.lastFour
    f.bin = order.card.bin
    f["card-type"] = order.card.brand
    f["cardholder-name"] = order.card.holder
    f.name = order.card.holder
    f["card-exp-month"] = order.card.expMonth
    f["card-exp-year"] = order.card.expYear
  }
  if (order.cardRefId) f["card-ref-id"] = order.cardRefId
  if (order.recurringPaymentId) f["recurring-payment-id"] = order.recurringPaymentId
  if (order.payer.email) f.email = order.payer.email
  if (order.payer.phone) f.phone = order.payer.phone
  if (order.releasedMinor > 0n || order.returnedMinor > 0n) f["gate-partial-reversal"] = "enabled"
  if (order.capturedMinor > 0n && order.kind === "preauth") f["gate-partial-capture"] = "enabled"
  return f
}

/**
 * "Retry the charge" for a past-due subscription (issue 35): a declined renewal charged again now, on demand, with
 * the gateway's make-rebill on the subscription's own card reference (the card-ref-id create-card-ref gave when the
 * subscription was set up, `recurring_payment.card_ref_id`; the spec: "make-rebill charges the card reference
 * cardrefid with the cardholder absent"). The gateway's schedule is not touched.
 *
 * Money moves once, with the admin rebill's machinery (workflows/payneteasy/saved-cards/admin-rebill.ts): the same
 * record (`payneteasy_rebill`, one `pending` row per order: a second retry cannot start while one may have charged)
 * and the same lock (`payneteasy:rebill:<first order id>`, taken by the workflow). One row and one client_orderid,
 * `<subscription id>-r<n>`, per attempt, written before anything is sent; make-rebill is sent once (card-gateway.ts
 * rebillCard: a lost reply is settled by STATUS on the same client_orderid). A row still `pending` (the outcome was
 * not known, or the process died) is settled by STATUS on its own client_orderid alone — never a new id, never sent
 * again: a gateway still processing it does not show it yet (issue 49), so "not found" keeps it pending.
 *
 * A final answer is handed to the recurring charge's own path (charge-callback.ts processRecurringCharge, the one a
 * renewal callback takes): approved → a renewal order like any renewal and the subscription `active` again; declined
 * → recorded, the subscription stays `past_due` with the gateway's reason. The retry's callback (its client_orderid
 * names the subscription) takes the same path and finds the charge recorded.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { parseOptions, isFinal, type StatusReply } from "../connection"
import { cardsClient, cardsProviderOptions } from "../connection/cards-config"
import { rebillCard, rebillStatus } from "../saved-cards/card-gateway"
import { orderIdOf, errorMessageOf } from "../../gateway/replies"
import { scrub } from "../../gateway/scrub"
import type { RecurringChargeRow, RecurringPaymentRow } from "../../modules/payneteasy/service"
import { processRecurringCharge } from "./charge-callback"
import type { RenewOrder } from "./renewal-order"
import { service } from "./records"
import { retryClientOrderId, settleRetryIntent, type RetryIntentRow as RebillRow } from "./retry-intent"
import { pluginCallbackUrl } from "../connection/plugin-urls"


/** Why a subscription's charge may not be retried now (a 409 the route answers as is), or null. */
export type RetryRefusal = { type: "not_past_due" | "no_card"; message: string }

export function retryRefusal(rp: Pick<RecurringPaymentRow, "status" | "card_ref_id" | "provider_id" | "card_brand" | "card_last4">): RetryRefusal | null {
  if (rp.status !== "past_due") {
    return {
      type: "not_past_due",
      message: rp.status === "active"
        ? "This subscription is not past due: it is active (its last charge was approved), so there is nothing to retry and nothing was charged."
        : `This subscription is not past due (it is ${rp.status.replace(/_/g, " ")}): only a declined renewal can be retried. Nothing was charged.`,
    }
  }
  if (!rp.card_ref_id || !rp.provider_id) {
    return {
      type: "no_card",
      message: "The gateway holds no card this subscription can be charged with, so the charge cannot be retried from here. Ask the customer to pay the renewal (or to buy the subscription again with a card that works). Nothing was charged.",
    }
  }
  return null
}

/** The retry's record, as the route answers it (never the card reference). */
export type RetryView = {
  id: string
  client_orderid: string | null
  state: "pending" | "succeeded" | "failed"
  amount: string
  currency_code: string
  gateway_order_id: string | null
  gateway_status: string | null
  error: string | null
  renewal_order_id: string | null
  /** true when this request settled an earlier retry still waiting for its outcome (nothing new was sent) */
  resumed: boolean
}

export function retryView(row: RebillRow, renewalOrderId: string | null, resumed: boolean): RetryView {
  return {
    id: row.id, client_orderid: row.client_orderid, state: row.state, amount: row.amount, currency_code: row.currency_code,
    gateway_order_id: row.gateway_order_id, gateway_status: row.gateway_status, error: row.error_message,
    renewal_order_id: renewalOrderId, resumed,
  }
}

/** The subscription's retry still waiting for its outcome, if any (at most one: the order's one-pending index). */
export async function pendingRetry(container: MedusaContainer, rpId: string): Promise<RebillRow | undefined> {
  const [row] = await service(container).listPaynetEasyRebills({ recurring_payment_id: rpId, state: "pending" }, { take: 1 })
  return row as RebillRow | undefined
}

/** Writes a new retry's record (before anything is sent): the next attempt number, amount and currency of the subscription. */
export async function recordRetryIntent(container: MedusaContainer, rp: RecurringPaymentRow, requestedBy: string | null): Promise<RebillRow> {
  const svc = service(container)
  const earlier = await svc.listPaynetEasyRebills({ recurring_payment_id: rp.id }, { select: ["id"], withDeleted: true })
  const clientOrderId = retryClientOrderId(rp.id, earlier.length + 1)
  try {
    return (await svc.createPaynetEasyRebills({
      order_id: rp.order_id, card_id: null, customer_id: rp.customer_id ?? "", idempotency_key: clientOrderId,
      amount: rp.amount, currency_code: rp.currency_code, state: "pending", requested_by: requestedBy,
      recurring_payment_id: rp.id, client_orderid: clientOrderId,
    })) as unknown as RebillRow
  } catch (e) {
    // The order's one-pending-rebill index: an admin rebill of the subscription's first order, or another retry, has
    // no outcome yet (a process that missed the lock).
    if (/unique|duplicate key/i.test(String((e as Error)?.message))) {
      throw new MedusaError(MedusaError.Types.CONFLICT, "Another charge of this subscription's order has no outcome yet; nothing was charged by this request. Try again when it has finished.")
    }
    throw e
  }
}

/** What the gateway said, in the shape charge-callback.ts reads a charge report. */
type Outcome = { kind: "final"; orderId: string; status: StatusReply } | { kind: "unknown"; orderId?: string; reason: string }

async function askOrSend(container: MedusaContainer, rp: RecurringPaymentRow, row: RebillRow, resumed: boolean): Promise<Outcome> {
  const client = cardsClient(container, rp.provider_id!)
  const clientOrderId = row.client_orderid!
  if (resumed) {
    // Sent before (or maybe sent): the gateway is asked about the same client_orderid, and nothing is sent again — a
    // gateway still processing the first request shows nothing of it yet (core/connection/money-request.ts).
    let status: StatusReply | undefined
    try {
      status = await rebillStatus(client, clientOrderId, row.gateway_order_id ?? undefined)
    } catch (e) {
      return { kind: "unknown", orderId: row.gateway_order_id ?? undefined, reason: `STATUS could not tell what became of it: ${scrub((e as Error).message)}` }
    }
    if (status) {
      const orderId = orderIdOf(status) ?? row.gateway_order_id ?? undefined
      if (isFinal(status) && orderId) return { kind: "final", orderId, status }
      return { kind: "unknown", orderId, reason: `the gateway says ${status.status}, not final yet` }
    }
    return { kind: "unknown", orderId: row.gateway_order_id ?? undefined, reason: "the gateway does not show this charge yet (it may still be processing it); nothing was sent again" }
  }
  const backend = parseOptions(cardsProviderOptions(container, rp.provider_id!)).backendUrl.replace(/\/+$/, "")
  const result = await rebillCard(client, {
    clientOrderId, cardRefId: rp.card_ref_id!, amount: rp.amount, currency: rp.currency_code,
    description: `Subscription from order ${rp.order_id}: declined renewal charged again`, ip: "0.0.0.0",
    callbackUrl: pluginCallbackUrl(backend),
  })
  if (result.kind === "unknown") return { kind: "unknown", orderId: result.orderId, reason: scrub(result.reason) }
  const orderId = result.orderId ?? orderIdOf(result.status)
  if (isFinal(result.status) && orderId) return { kind: "final", orderId, status: result.status }
  return { kind: "unknown", orderId, reason: `the gateway says ${result.status.status}, not final yet` }
}

/**
 * Sends the retry (or settles the one still pending) and records its outcome. Call under the order's rebill lock.
 * A refusal to send (the gateway refused the request itself, or it never left) marks the row failed and is rethrown
 * as NOT_ALLOWED ("not sent"): nothing was charged.
 */
export async function runRetryCharge(
  container: MedusaContainer, rp: RecurringPaymentRow, row: RebillRow, resumed: boolean, renew: RenewOrder
): Promise<{ retry: RetryView; rp: RecurringPaymentRow }> {
  const svc = service(container)
  let outcome: Outcome
  try {
    outcome = await askOrSend(container, rp, row, resumed)
  } catch (e) {
    const why = scrub((e as Error).message)
    await svc.updatePaynetEasyRebills({ id: row.id, state: "failed", error_message: `not sent: ${why}` })
    throw Object.assign(new MedusaError(MedusaError.Types.NOT_ALLOWED, `The charge did not reach PaynetEasy, so nothing was charged: ${why}. It may be retried.`), { retry_not_sent: true })
  }
  if (outcome.kind === "unknown") {
    await svc.updatePaynetEasyRebills({ id: row.id, gateway_order_id: outcome.orderId ?? row.gateway_order_id ?? null, error_message: outcome.reason })
  } else {
    await svc.updatePaynetEasyRebills({ id: row.id, gateway_order_id: outcome.orderId, gateway_status: outcome.status.status })
    await processRecurringCharge(container, {
      client_orderid: row.client_orderid!, orderid: outcome.orderId, amount: outcome.status.amount ?? rp.amount,
      currency: outcome.status.currency ?? rp.currency_code,
    }, renew)
    await settleRetryIntent(container, rp.id, row.client_orderid!, outcome.orderId, outcome.status.status, errorMessageOf(outcome.status) ?? null)
  }
  const [fresh] = (await svc.listPaynetEasyRebills({ id: row.id }, { take: 1 })) as unknown as RebillRow[]
  const [charge] = fresh.gateway_order_id
    ? ((await svc.listPaynetEasyRecurringCharges({ recurring_payment_row_id: rp.id, gateway_order_id: fresh.gateway_order_id }, { take: 1 })) as RecurringChargeRow[])
    : []
  const [now] = (await svc.listPaynetEasyRecurringPayments({ id: rp.id }, { take: 1 })) as RecurringPaymentRow[]
  return { retry: retryView(fresh, charge?.renewal_order_id ?? null, resumed), rp: now }
}

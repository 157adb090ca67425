/**
 * `POST /admin/payneteasy/recurring-payments/:id/retry-charge` (body `{}`) — "Retry the charge" of a past-due
 * subscription: its declined renewal charged now to the subscription's card (make-rebill on its card reference,
 * workflows/payneteasy/recurring/retry-charge.ts). Admin authentication; the body is validated (middlewares.ts).
 *
 * 200 `{ recurring_payment, retry, message }`: approved — a renewal order like any renewal (`retry.renewal_order_id`),
 *     the subscription active again;
 * 400 `{ type: "payment_declined", message, recurring_payment, retry }`: the gateway declined; it stays past due;
 * 202 `{ type: "payment_pending", message, recurring_payment, retry }`: no final answer yet (or the reply and STATUS
 *     were lost): the card may have been charged; retrying asks the gateway about the same charge, never sends another;
 * 502 `{ type: "retry_not_sent", message }`: it never reached the gateway, nothing was charged;
 * 409 `{ type, message }`, nothing charged: `not_past_due`, `no_card` (no card the gateway can charge: ask the
 *     customer), `retry_in_progress` (another charge of this subscription's order still running after the wait);
 * 404 for an unknown subscription.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { paynetEasyModule } from "../../../../../../modules/payneteasy"
import type { RecurringChargeRow, RecurringPaymentRow } from "../../../../../../modules/payneteasy/service"
import { isLockTimeout } from "../../../../../../core/locks/busy-lock"
import { recurringPaymentViews } from "../../../../../../core/dashboard/recurring-view"
import { retryNotSent, retryRefusalOf, retryRenewalChargeWorkflow } from "../../../../../../workflows/payneteasy/recurring/retry-charge"
import { sendError } from "../../../payouts/http"
import { scrub } from "../../../../../../gateway/scrub"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const svc = paynetEasyModule(req.scope)
  const [rp] = (await svc.listPaynetEasyRecurringPayments({ id: req.params.id }, { take: 1 })) as RecurringPaymentRow[]
  if (!rp) return res.status(404).json({ type: "not_found", message: `Subscription ${req.params.id} was not found` })
  let retry
  try {
    ;({ result: retry } = await retryRenewalChargeWorkflow(req.scope).run({
      input: { id: rp.id, order_id: rp.order_id, requested_by: req.auth_context?.actor_id ?? null },
    }))
  } catch (e) {
    if (isLockTimeout(e)) {
      return res.status(409).json({
        type: "retry_in_progress",
        message: "Another charge of this subscription's order is still running; nothing was charged by this request. Look again in a minute.",
      })
    }
    const refusal = retryRefusalOf(e)
    if (refusal) return res.status(409).json(refusal)
    if (retryNotSent(e)) return res.status(502).json({ type: "retry_not_sent", message: scrub(String((e as Error).message)) })
    return sendError(res, e)
  }
  const [row] = (await svc.listPaynetEasyRecurringPayments({ id: rp.id }, { take: 1 })) as RecurringPaymentRow[]
  const charges = (await svc.listPaynetEasyRecurringCharges({ recurring_payment_row_id: rp.id }, { order: { charged_at: "ASC" } })) as RecurringChargeRow[]
  const [recurring_payment] = await recurringPaymentViews(req.scope, [row], charges)
  const money = `${retry.amount} ${retry.currency_code}`
  if (retry.state === "succeeded") {
    return res.json({
      recurring_payment, retry,
      message: `PaynetEasy approved the charge of ${money}${retry.renewal_order_id ? `; renewal order ${retry.renewal_order_id} was made` : ""}. The subscription is ${row.status.replace(/_/g, " ")}.`,
    })
  }
  if (retry.state === "failed") {
    return res.status(400).json({
      type: "payment_declined", recurring_payment, retry,
      message: `PaynetEasy declined the charge of ${money}: ${retry.error ?? retry.gateway_status ?? "no reason given"}. The subscription stays past due.`,
    })
  }
  return res.status(202).json({
    type: "payment_pending", recurring_payment, retry,
    message: `PaynetEasy has not confirmed the charge of ${money} yet (${retry.error ?? "no final answer"}): the card may have been charged. Retrying asks the gateway about this same charge; nothing is sent twice.`,
  })
}

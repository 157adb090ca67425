/**
 * A guard in front of Medusa's POST /admin/orders/:id/cancel, for orders with PaynetEasy payments (the rules and why:
 * core/checkout/order-cancel.ts): a capture or refund not confirmed by the gateway yet refuses the cancel 409 in words;
 * money captured and not refunded is returned first through Medusa's refundPaymentWorkflow (booked on the order only
 * when made), a refund that fails answers in words with the order left as it was, and one the gateway has not confirmed
 * yet answers 202 with the order not canceled yet; a hold still live is released (the payment module's cancelPayment: the
 * provider's VOID) and the order waits the same way for the gateway to confirm it; then Medusa cancels. A fulfillment created in the moment between
 * this guard and Medusa's own validation is not seen here (Medusa's routes take none of our locks). An unknown
 * order, or one Medusa would refuse to cancel, goes on to Medusa's own answer with nothing returned.
 */
import type { AuthenticatedMedusaRequest, MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import {
  holdsBeforeCancel, medusaWouldCancel, refundsBeforeCancel, unsettledPaymentRefusal, type CancelableOrder, type CancelablePayment,
} from "../core/checkout/order-cancel"

const PAYMENT = "payment_collections.payments"
const FIELDS = [
  "id", "status", "fulfillments.canceled_at", `${PAYMENT}.id`, `${PAYMENT}.provider_id`, `${PAYMENT}.currency_code`, `${PAYMENT}.raw_amount`, `${PAYMENT}.data`,
  `${PAYMENT}.captures.id`, `${PAYMENT}.captures.raw_amount`, `${PAYMENT}.refunds.id`, `${PAYMENT}.refunds.raw_amount`,
]

/** The status of a refund's failure: Medusa's own for its refusals (a workflow hands them on as plain objects), 502 otherwise. */
function statusOf(e: unknown): number {
  const type = (e as { type?: unknown } | null)?.type
  if (typeof type !== "string" || !(Object.values(MedusaError.Types) as string[]).includes(type)) return 502
  return ({ [MedusaError.Types.NOT_FOUND]: 404, [MedusaError.Types.CONFLICT]: 409 } as Record<string, number>)[type] ?? 400
}
const textOf = (e: unknown) => String((e as { message?: unknown } | null)?.message ?? e)

async function readOrder(req: MedusaRequest, orderId: string) {
  const { data } = await req.scope.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order", fields: FIELDS, filters: { id: orderId } })
  const order = data[0] as (CancelableOrder & { payment_collections?: Array<{ payments?: CancelablePayment[] } | null> }) | undefined
  return order && { order, payments: (order.payment_collections ?? []).flatMap((c) => c?.payments ?? []) }
}

export async function refuseCancelWhileUnsettled(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const orderId = req.params?.id
  if (!orderId) return next()
  const read = await readOrder(req, orderId)
  if (!read || !medusaWouldCancel(read.order)) return next()
  const { order, payments } = read
  const refusal = unsettledPaymentRefusal(order.id, payments)
  if (refusal) return void res.status(409).json({ type: "not_allowed", message: refusal })
  const refunds = refundsBeforeCancel(payments)
  for (const refund of refunds) {
    try {
      await refundPaymentWorkflow(req.scope).run({ input: { ...refund, created_by: (req as AuthenticatedMedusaRequest).auth_context?.actor_id } })
    } catch (e) {
      return void res.status(statusOf(e)).json({
        type: "not_allowed",
        message: `Order ${order.id} was not canceled by this request: returning the captured ${refund.amount} of payment ${refund.payment_id} failed (${textOf(e)}). Nothing else was changed.`,
      })
    }
  }
  // A refund the gateway has not confirmed yet (its reply lost, or still processing) is booked as pending: the order
  // stays as it is until it settles, as for any money action that is not final (found from outside, issue 49).
  const afterRefunds = refunds.length ? await readOrder(req, orderId) : read
  if (afterRefunds && refunds.length && unsettledPaymentRefusal(afterRefunds.order.id, afterRefunds.payments)) {
    return void res.status(202).json({
      type: "pending",
      message: `Order ${order.id} was not canceled yet: the return of its captured money is sent and the gateway has not confirmed it. Cancel it again once the refund is settled: reconciliation settles it with the gateway by itself, but does not cancel the order.`,
    })
  }
  // Then every hold still live, released here so the order waits for the gateway's word (Medusa's own cancel voids only
  // payments with no capture, and cancels the order whatever the VOID's outcome).
  const holds = holdsBeforeCancel(afterRefunds?.payments ?? payments)
  for (const paymentId of holds) {
    try {
      await req.scope.resolve(Modules.PAYMENT).cancelPayment(paymentId)
    } catch (e) {
      return void res.status(statusOf(e)).json({
        type: "not_allowed",
        message: `Order ${order.id} was not canceled by this request: releasing the hold of payment ${paymentId} failed (${textOf(e)}). ${refunds.length ? "The captured money returned just before stays returned (the order shows it); nothing else" : "Nothing else"} was changed.`,
      })
    }
  }
  const afterHolds = holds.length ? await readOrder(req, orderId) : undefined
  if (afterHolds && unsettledPaymentRefusal(afterHolds.order.id, afterHolds.payments)) {
    return void res.status(202).json({
      type: "pending",
      message: `Order ${order.id} was not canceled yet: the release of its payment's hold is sent and the gateway has not confirmed it. Cancel it again once the release is settled: reconciliation settles it with the gateway by itself, but does not cancel the order.`,
    })
  }
  next()
}

/**
 * A guard in front of Medusa's POST /admin/orders/:id/cancel, for orders with PaynetEasy payments (the rules and why:
 * core/checkout/order-cancel.ts): a capture or refund not confirmed by the gateway yet refuses the cancel 409 in words;
 * money captured and not refunded is returned first through Medusa's refundPaymentWorkflow (booked on the order only
 * when made), and a refund that fails answers in words with the order left as it was; then Medusa cancels. An unknown
 * order, or one Medusa would refuse to cancel, goes on to Medusa's own answer with nothing returned.
 */
import type { AuthenticatedMedusaRequest, MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import {
  medusaWouldCancel, refundsBeforeCancel, unsettledPaymentRefusal, type CancelableOrder, type CancelablePayment,
} from "../core/checkout/order-cancel"

const PAYMENT = "payment_collections.payments"
const FIELDS = [
  "id", "status", "fulfillments.canceled_at", `${PAYMENT}.id`, `${PAYMENT}.provider_id`, `${PAYMENT}.currency_code`, `${PAYMENT}.data`,
  `${PAYMENT}.captures.id`, `${PAYMENT}.captures.raw_amount`, `${PAYMENT}.refunds.id`, `${PAYMENT}.refunds.raw_amount`,
]

/** The status of a refund's failure: Medusa's own for its refusals, 502 for the gateway's. */
const statusOf = (e: unknown) =>
  e instanceof MedusaError ? ({ [MedusaError.Types.NOT_FOUND]: 404, [MedusaError.Types.CONFLICT]: 409 } as Record<string, number>)[e.type] ?? 400 : 502

export async function refuseCancelWhileUnsettled(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const orderId = req.params?.id
  if (!orderId) return next()
  const { data } = await req.scope.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order", fields: FIELDS, filters: { id: orderId } })
  const order = data[0] as (CancelableOrder & { payment_collections?: Array<{ payments?: CancelablePayment[] } | null> }) | undefined
  if (!order || !medusaWouldCancel(order)) return next()
  const payments = (order.payment_collections ?? []).flatMap((c) => c?.payments ?? [])
  const refusal = unsettledPaymentRefusal(order.id, payments)
  if (refusal) return void res.status(409).json({ type: "not_allowed", message: refusal })
  for (const refund of refundsBeforeCancel(payments)) {
    try {
      await refundPaymentWorkflow(req.scope).run({ input: { ...refund, created_by: (req as AuthenticatedMedusaRequest).auth_context?.actor_id } })
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e)
      return void res.status(statusOf(e)).json({
        type: "not_allowed",
        message: `Order ${order.id} was not canceled: returning the captured ${refund.amount} of payment ${refund.payment_id} failed (${why}). Try again; nothing else was changed.`,
      })
    }
  }
  next()
}

/**
 * A guard in front of Medusa's POST /admin/orders/:id/cancel: an order whose PaynetEasy payment has a capture or refund
 * the gateway has not confirmed yet is refused 409 in words before Medusa runs (the rule and why:
 * core/checkout/unsettled-payment.ts). An unknown order goes on to Medusa's own 404.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { unsettledPaymentRefusal, type CancelablePayment } from "../core/checkout/unsettled-payment"

export async function refuseCancelWhileUnsettled(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const orderId = req.params?.id
  if (!orderId) return next()
  const { data } = await req.scope.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order",
    fields: ["id", "payment_collections.payments.id", "payment_collections.payments.provider_id", "payment_collections.payments.data", "payment_collections.payments.captures.id"],
    filters: { id: orderId },
  })
  const order = data[0] as { id: string; payment_collections?: Array<{ payments?: CancelablePayment[] }> } | undefined
  const payments = (order?.payment_collections ?? []).flatMap((c) => c?.payments ?? [])
  const refusal = order ? unsettledPaymentRefusal(order.id, payments) : undefined
  if (refusal) return void res.status(409).json({ type: "not_allowed", message: refusal })
  next()
}

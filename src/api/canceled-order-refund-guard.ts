/**
 * A guard in front of Medusa's POST /admin/payments/:id/refund and /capture: the refund or capture of a payment whose
 * order is canceled is refused 409 in words before Medusa runs (the rule and why: core/checkout/canceled-order-refund.ts). Every provider's
 * payments are guarded: Medusa's workflow fails the same way for all of them. An unknown payment goes on to Medusa's
 * own 404; a payment of no order (a cart's) to Medusa's own answer.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { canceledOrderRefundRefusal } from "../core/checkout/canceled-order-refund"

function refuseOnCanceledOrder(action: "refund" | "capture") {
  return async (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    const paymentId = req.params?.id
    if (!paymentId) return next()
    const [payment] = await req.scope.resolve(Modules.PAYMENT).listPayments({ id: paymentId }, { select: ["id", "payment_collection_id"] })
    if (!payment?.payment_collection_id) return next()
    const { data } = await req.scope.resolve(ContainerRegistrationKeys.QUERY).graph({
      entity: "order_payment_collection",
      fields: ["order.id", "order.status"],
      filters: { payment_collection_id: payment.payment_collection_id },
    })
    const order = (data[0] as { order?: { id: string; status?: string | null } } | undefined)?.order
    const refusal = canceledOrderRefundRefusal(order, action)
    if (refusal) return void res.status(409).json({ type: "not_allowed", message: refusal })
    next()
  }
}

export const refuseRefundOnCanceledOrder = refuseOnCanceledOrder("refund")
export const refuseCaptureOnCanceledOrder = refuseOnCanceledOrder("capture")

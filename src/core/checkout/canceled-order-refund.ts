/**
 * No refund of a canceled order's payment through Medusa's refund route. Medusa 2.21.2's refundPaymentWorkflow refunds
 * first (the provider's RETURN: money goes back to the card) and then fails on the canceled order while it books the
 * refund's credit line; its compensation removes the order transaction and cannot take the refund back, so the money
 * has left while the order summary never counts it, and the admin is told 400 (found by the money model, seed
 * 20261202, and from outside, issue 49). Refused before anything runs instead; what a canceled order still holds
 * captured is the attention queue's and the gateway's back office's to give back.
 */

/** The words of the refusal, or undefined when the order (if any) may be refunded through Medusa. */
export function canceledOrderRefundRefusal(order: { id: string; status?: string | null } | undefined): string | undefined {
  if (order?.status !== "canceled") return undefined
  return (
    `Order ${order.id} is canceled: Medusa cannot book a refund on a canceled order (it would return the money and then ` +
    `fail to record it), so nothing was returned. Give back what it still holds from the gateway's back office.`
  )
}

/**
 * No refund of a canceled order's payment through Medusa's refund route. Medusa 2.21.2's refundPaymentWorkflow refunds
 * first (the provider's RETURN: money goes back to the card) and then fails on the canceled order while it books the
 * refund's credit line; its compensation removes the order transaction and cannot take the refund back, so the money
 * has left while the order summary never counts it, and the admin is told 400 (found by the money model, seed
 * 20261202, and from outside, issue 49). Refused before anything runs instead; what a canceled order still holds
 * captured is the attention queue's and the gateway's back office's to give back. Nor a capture: Medusa lets one take
 * money on a canceled order's payment whose hold is still live (a VOID that failed inside Medusa's cancel, or the rest
 * of a partly captured preauth, which Medusa's cancel never voids), and that money then cannot be refunded through
 * Medusa (found from outside, issue 49).
 */

/** The words of the refusal, or undefined when the order (if any) may be refunded or captured through Medusa. */
export function canceledOrderRefundRefusal(order: { id: string; status?: string | null } | undefined, action: "refund" | "capture" = "refund"): string | undefined {
  if (order?.status !== "canceled") return undefined
  if (action === "capture") return `Order ${order.id} is canceled: no money is captured on a canceled order, so nothing was captured.`
  return (
    `Order ${order.id} is canceled: Medusa cannot book a refund on a canceled order (it would return the money and then ` +
    `fail to record it), so nothing was returned. Give back what it still holds from the gateway's back office.`
  )
}

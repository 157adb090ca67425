// The order page (dtc-starter's order/[id]/confirmed with its payment-details): a server component that shows the
// payment method's title and icon from paymentInfoMap, i.e. from the kit's server-safe entry.
import type { HttpTypes } from "@medusajs/types"
import { notFound } from "next/navigation"
import { sdk } from "@lib/config"
import { paymentInfoMap } from "@lib/constants"
import { getAuthHeaders } from "@lib/data/cookies"

export const dynamic = "force-dynamic"

export default async function OrderConfirmed(props: { params: Promise<{ id: string }> }) {
  const { id } = await props.params
  const order = await sdk.client
    .fetch<HttpTypes.StoreOrderResponse>(`/store/orders/${id}`, {
      query: { fields: "*payment_collections.payments,*items" }, headers: await getAuthHeaders(), cache: "no-store",
    })
    .then((r) => r.order)
    .catch(() => null)
  if (!order) return notFound()
  const payment = order.payment_collections?.[0]?.payments?.[0]
  return (
    <div id="order" data-order-id={order.id}>
      <h1>Thank you! Order #{order.display_id} is confirmed.</h1>
      {payment && (
        <p id="payment-method">
          {paymentInfoMap[payment.provider_id]?.icon} {paymentInfoMap[payment.provider_id]?.title ?? payment.provider_id}
        </p>
      )}
    </div>
  )
}

// The checkout page (dtc-starter's app/[countryCode]/(checkout)/checkout/page.tsx): a server component.
import type { HttpTypes } from "@medusajs/types"
import { notFound } from "next/navigation"
import { sdk } from "@lib/config"
import { retrieveCart } from "@lib/data/cart"
import { retrieveCustomer } from "@lib/data/customer"
import Payment from "@modules/checkout/components/payment"
import Review from "@modules/checkout/components/review"

export const dynamic = "force-dynamic"

export default async function Checkout() {
  const cart = await retrieveCart()
  if (!cart) return notFound()
  const customer = await retrieveCustomer()
  const { payment_providers } = await sdk.client.fetch<HttpTypes.StorePaymentProviderListResponse>("/store/payment-providers", {
    query: { region_id: cart.region_id ?? "" }, cache: "no-store",
  })
  return (
    <div className="grid grid-cols-1 gap-y-8" id="checkout" data-cart-id={cart.id}>
      <Payment cart={cart} availablePaymentMethods={payment_providers.sort((a, b) => (a.id > b.id ? 1 : -1))} />
      <Review cart={cart} customer={customer} />
    </div>
  )
}

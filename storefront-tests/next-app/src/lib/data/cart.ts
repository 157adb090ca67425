"use server"
// Cart server actions in dtc-starter's shape (src/lib/data/cart.ts): every store call on the server, with the
// customer's auth header from the httpOnly cookie.
import type { HttpTypes } from "@medusajs/types"
import { redirect } from "next/navigation"
import { sdk } from "@lib/config"
import { getAuthHeaders, getCartId, removeCartId, setCartId } from "./cookies"

const CART_FIELDS = "*items,*region,*shipping_methods,*shipping_address,*billing_address,*payment_collection,*payment_collection.payment_sessions"

export async function retrieveCart(): Promise<HttpTypes.StoreCart | null> {
  const id = await getCartId()
  if (!id) return null
  return sdk.client
    .fetch<HttpTypes.StoreCartResponse>(`/store/carts/${id}`, { query: { fields: CART_FIELDS }, headers: await getAuthHeaders(), cache: "no-store" })
    .then(({ cart }) => (cart.completed_at ? null : cart))
    .catch(() => null)
}

/** The test's shortcut to a cart ready for payment (dtc-starter gets there through its product, address and shipping steps). */
export async function startCheckout(countryCode: string, formData: FormData) {
  const headers = await getAuthHeaders()
  const customer = headers.authorization
    ? await sdk.store.customer.retrieve({}, headers).then((r) => r.customer).catch(() => undefined)
    : undefined
  const address = {
    first_name: "Jane", last_name: "Payer", address_1: "1 Main St", city: "Berlin", postal_code: "10115",
    country_code: countryCode, phone: "+49301234567",
  }
  const { cart } = await sdk.store.cart.create(
    {
      region_id: String(formData.get("region_id")), sales_channel_id: String(formData.get("sales_channel_id")),
      email: customer?.email ?? "guest@payneteasy.test", shipping_address: address, billing_address: address,
      items: [{ variant_id: String(formData.get("variant_id")), quantity: 1 }],
    },
    {},
    headers
  )
  await sdk.store.cart.addShippingMethod(cart.id, { option_id: String(formData.get("shipping_option_id")) }, {}, headers)
  await setCartId(cart.id)
  redirect(`/${countryCode}/checkout?step=payment`)
}

export async function initiatePaymentSession(cart: HttpTypes.StoreCart, data: HttpTypes.StoreInitializePaymentSession) {
  return sdk.store.payment.initiatePaymentSession(cart, data, {}, await getAuthHeaders())
}

/** Completes the cart; once it is an order, forgets the cart and shows the order page (as dtc-starter's placeOrder). */
export async function placeOrder(cartId?: string) {
  const id = cartId || (await getCartId())
  if (!id) throw new Error("No existing cart found when placing an order")
  const res = await sdk.store.cart.complete(id, {}, await getAuthHeaders())
  if (res.type === "order") {
    await removeCartId()
    redirect(`/${res.order.shipping_address?.country_code?.toLowerCase()}/order/${res.order.id}/confirmed`)
  }
  return res.cart
}

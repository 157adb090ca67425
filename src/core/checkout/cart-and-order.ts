/**
 * Where a payment collection leads: its cart and, once the cart is completed, its order.
 *
 * The payment session knows only its payment collection; Medusa links the collection to a cart
 * (`cart_payment_collection`) and, after cart completion, to the order (`order_payment_collection`, and the cart to
 * the order through `order_cart`). The order link is read both ways because cart completion writes `order_cart`
 * and `order_payment_collection` in different steps. One place for this lookup: the return route, settleSession and
 * the direct card route all need it.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

export type CartLinks = { cartId?: string; orderId?: string }

export async function cartAndOrderFor(container: MedusaContainer, paymentCollectionId: string): Promise<CartLinks> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [{ data: carts }, { data: orders }] = await Promise.all([
    query.graph({ entity: "cart_payment_collection", fields: ["cart_id"], filters: { payment_collection_id: paymentCollectionId } }),
    query.graph({ entity: "order_payment_collection", fields: ["order_id"], filters: { payment_collection_id: paymentCollectionId } }),
  ])
  const cartId = (carts[0] as { cart_id?: string } | undefined)?.cart_id
  let orderId = (orders[0] as { order_id?: string } | undefined)?.order_id
  if (!orderId && cartId) {
    const { data: orderCarts } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
    orderId = (orderCarts[0] as { order_id?: string } | undefined)?.order_id
  }
  return { cartId, orderId }
}

// The shop's front page: the cart line the header shows, a way to a cart ready for payment, and sign-up.
import { retrieveCart, startCheckout } from "@lib/data/cart"
import { retrieveCustomer, signup } from "@lib/data/customer"

export const dynamic = "force-dynamic"

export default async function Home(props: { params: Promise<{ countryCode: string }> }) {
  const { countryCode } = await props.params
  const [cart, customer] = await Promise.all([retrieveCart(), retrieveCustomer()])
  const shop = {
    region_id: process.env.SHOP_REGION_ID ?? "", sales_channel_id: process.env.SHOP_SALES_CHANNEL_ID ?? "",
    variant_id: process.env.SHOP_VARIANT_ID ?? "", shipping_option_id: process.env.SHOP_SHIPPING_OPTION_ID ?? "",
  }
  return (
    <div className="flex flex-col gap-4">
      <p id="cart-line">{cart ? `Cart: ${cart.items?.length ?? 0} item(s)` : "Your cart is empty"}</p>
      {customer && <p id="customer">Signed in as {customer.email}</p>}
      <form action={startCheckout.bind(null, countryCode)}>
        {Object.entries(shop).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
        <button type="submit">Add to cart and check out</button>
      </form>
      {!customer && (
        <form action={signup.bind(null, countryCode)} className="flex gap-2">
          <input name="email" aria-label="Email" />
          <input name="password" type="password" aria-label="Password" />
          <button type="submit">Sign up</button>
        </form>
      )}
    </div>
  )
}

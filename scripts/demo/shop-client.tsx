/**
 * The demo shop's browser code: a storefront page built only from the storefront kit
 * (`medusa-payment-payneteasy/storefront` and `/storefront/react`) plus the js-sdk for the shop's own cart steps.
 * Bundled by esbuild when the shop is served (scripts/demo/shop.ts). Two pages share it:
 * - the shop (`#shop`): a cart with the demo product, then the payment step — the region's PaynetEasy methods from
 *   `paymentMethodInfo`: the hosted page (`HostedPayButton`), the card form with 3-D Secure (`DirectCardForm`), and,
 *   for a signed-in customer, saved cards (`SavedCards`) and "save this card";
 * - the return page (`#return`): `PaymentReturn` (order, or the decline with "Try again"; a payment link's return goes
 *   on to the link's page);
 * - the payment-link page (`/payment-collection/:id?order_id=…`): `PaymentLinkPage`, with saved cards when signed in.
 * `?lang=de|ru` picks the kit's language; `?cart_id=` resumes a cart (the return page's way back to the card form).
 */
import Medusa from "@medusajs/js-sdk"
import { useEffect, useMemo, useState } from "react"
import { createRoot } from "react-dom/client"
import { isPaynetEasy, type CartLike, type OrderLike } from "medusa-payment-payneteasy/storefront"
import {
  DirectCardForm, HostedPayButton, PaymentLinkPage, PaymentReturn, PaynetEasyProvider, SavedCards, paymentMethodInfo, usePaynetEasy,
} from "medusa-payment-payneteasy/storefront/react"

interface ShopConfig {
  backendUrl: string
  publishableKey: string
  regionId: string
  salesChannelId: string
  variantId: string
  shippingOptionId: string
  countryCode: string
  providerId: string
  directProviderId?: string
  shopPath: string
}

const C = (window as unknown as { __PAYNETEASY_SHOP__: ShopConfig }).__PAYNETEASY_SHOP__
const query = new URLSearchParams(location.search)
const sdk = new Medusa({ baseUrl: C.backendUrl || location.origin, publishableKey: C.publishableKey, auth: { type: "jwt" } })
const CART_FIELDS = "id,email,total,currency_code,*billing_address,*shipping_address,*payment_collection,*payment_collection.payment_sessions"

async function newCart(email: string): Promise<CartLike> {
  const address = {
    first_name: "Demo", last_name: "Shopper", address_1: "1 Demo Street", city: "Berlin", postal_code: "10115",
    country_code: C.countryCode, phone: "+49301234567",
  }
  const { cart } = await sdk.store.cart.create({
    region_id: C.regionId, sales_channel_id: C.salesChannelId, email, items: [{ variant_id: C.variantId, quantity: 1 }],
    shipping_address: address, billing_address: address,
  })
  await sdk.store.cart.addShippingMethod(cart.id, { option_id: C.shippingOptionId })
  return loadCart(cart.id)
}

const loadCart = async (id: string) => (await sdk.store.cart.retrieve(id, { fields: CART_FIELDS })).cart as unknown as CartLike

/** Signs in (registering the customer the first time): saved cards are for customers only. */
async function signIn(email: string, password: string): Promise<void> {
  try {
    await sdk.auth.register("customer", "emailpass", { email, password })
    await sdk.store.customer.create({ email, first_name: "Demo", last_name: "Shopper" })
  } catch {
    // already registered: log in below
  }
  await sdk.auth.login("customer", "emailpass", { email, password })
}

function OrderPlaced({ order }: { order: OrderLike }) {
  const { formatAmount } = usePaynetEasy()
  return (
    <p id="order" data-order-id={order.id}>
      Order #{order.display_id} placed: {formatAmount(order.total as number, order.currency_code as string)}
    </p>
  )
}

function Shop() {
  const { messages, formatAmount } = usePaynetEasy()
  const [email, setEmail] = useState("shopper@payneteasy.demo")
  const [customer, setCustomer] = useState<string | undefined>(undefined)
  const [cart, setCart] = useState<CartLike | undefined>(undefined)
  const [providers, setProviders] = useState<string[]>([])
  const [method, setMethod] = useState<string | undefined>(undefined)
  const [saveCard, setSaveCard] = useState(false)
  const [order, setOrder] = useState<OrderLike | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)

  const start = async (as: string) => {
    setOrder(undefined)
    setCart(undefined)
    const resume = query.get("cart_id")
    setCart(resume ? await loadCart(resume) : await newCart(as))
  }
  useEffect(() => {
    start(email).catch((e) => setError((e as Error).message))
    sdk.store.payment.listPaymentProviders({ region_id: C.regionId }).then(
      ({ payment_providers }) => setProviders(payment_providers.map((p) => p.id).filter((id) => isPaynetEasy(id))),
      (e) => setError((e as Error).message)
    )
  }, [])

  const kind = (id: string) => (id === C.directProviderId ? "card form on this page" : "gateway's payment page")
  const methods = useMemo(() => [...providers.map((id) => ({ id, key: id })), ...(customer ? [{ id: C.directProviderId ?? C.providerId, key: "saved" }] : [])], [providers, customer])

  return (
    <main>
      <h1>PaynetEasy demo shop</h1>
      <section>
        {customer ? (
          <p id="customer">Signed in as {customer}</p>
        ) : (
          <form
            onSubmit={async (e) => {
              e.preventDefault()
              const password = (e.currentTarget.elements.namedItem("password") as HTMLInputElement).value
              try {
                await signIn(email, password)
                setCustomer(email)
                query.delete("cart_id")
                await start(email)
              } catch (err) {
                setError((err as Error).message)
              }
            }}
          >
            <label>Email <input name="email" value={email} onChange={(e) => setEmail(e.target.value)} size={30} /></label>{" "}
            <label>Password <input name="password" type="password" /></label>{" "}
            <button type="submit">Sign in</button>
          </form>
        )}
      </section>
      {error && <p role="alert" id="shop-error">{error}</p>}
      {cart && (
        <section id="cart" data-cart-id={cart.id}>
          <p>One demo product, total <b id="cart-total">{formatAmount(cart.total, cart.currency_code)}</b></p>
          {order ? (
            <>
              <OrderPlaced order={order} />
              <button type="button" onClick={() => (query.delete("cart_id"), start(email).catch((e) => setError((e as Error).message)))}>
                Shop again
              </button>
            </>
          ) : (
            <>
              <fieldset>
                <legend>Payment method</legend>
                {methods.map((m) => {
                  const info = paymentMethodInfo(m.id, messages)!
                  return (
                    <label key={m.key} className="method">
                      <input type="radio" name="method" value={m.key} checked={method === m.key} onChange={() => setMethod(m.key)} />
                      {info.icon} {m.key === "saved" ? messages.savedCards : `${info.title}: ${kind(m.id)}`}
                    </label>
                  )
                })}
              </fieldset>
              {customer && method !== "saved" && (
                <label>
                  <input type="checkbox" checked={saveCard} onChange={(e) => setSaveCard(e.target.checked)} /> {messages.saveCard}
                </label>
              )}
              {method === C.providerId && <HostedPayButton cart={cart} providerId={C.providerId} saveCard={saveCard} onOrder={setOrder} />}
              {method === C.directProviderId && (
                <DirectCardForm cart={cart} providerId={C.directProviderId!} saveCard={saveCard} onOrder={setOrder} />
              )}
              {method === "saved" && <SavedCards cart={cart} providerId={C.directProviderId ?? C.providerId} onOrder={setOrder} />}
            </>
          )}
        </section>
      )}
    </main>
  )
}

function Return() {
  const cartId = query.get("cart_id")
  return (
    <main>
      <h1>Payment result</h1>
      <PaymentReturn providerId={C.providerId} renderOrder={(order) => <OrderPlaced order={order} />} />
      <p>
        <a id="back" href={`${C.shopPath}${cartId ? `?cart_id=${encodeURIComponent(cartId)}` : ""}`}>Back to checkout</a>
      </p>
    </main>
  )
}

/** The dashboard's payment link: what the order still owes, paid on the hosted page (or a saved card when signed in). */
function PaymentLink() {
  const [signedIn, setSignedIn] = useState(false)
  useEffect(() => {
    sdk.store.customer.retrieve().then(() => setSignedIn(true), () => setSignedIn(false))
  }, [])
  const collectionId = decodeURIComponent(location.pathname.split("/").pop() ?? "")
  return (
    <main>
      <PaymentLinkPage
        collectionId={collectionId}
        orderId={query.get("order_id") ?? undefined}
        returned={query.get("returned") === "1"}
        savedCards={signedIn}
      />
    </main>
  )
}

const mount = document.getElementById("root")!
const pages = { return: Return, link: PaymentLink, shop: Shop }
const Page = pages[(mount.dataset.page ?? "shop") as keyof typeof pages] ?? Shop
createRoot(mount).render(
  <PaynetEasyProvider sdk={sdk} locale={query.get("lang") ?? "en"}>
    <Page />
  </PaynetEasyProvider>
)

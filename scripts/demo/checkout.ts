/**
 * The scripted storefront checkout, over HTTP exactly as a storefront and a shopper's browser would do it:
 * @medusajs/js-sdk store calls with the publishable key (cart → shipping → payment session), the sandbox's hosted
 * page paid by the shopper helper (payHostedPage, following the return POST to our /payneteasy/return route), the
 * gateway's server callback processed by the plugin, and cart completion. Each stage is a named step.
 */
import Medusa from "@medusajs/js-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import { payHostedPage, type Sandbox } from "../../src/sandbox"
import { PAYNETEASY_MODULE } from "../../src/modules/payneteasy"
import type PaynetEasyModuleService from "../../src/modules/payneteasy/service"
import type { StoreFixture } from "../../integration-tests/helpers/store"
import { DemoCheckError, describeError, step, waitFor } from "./steps"

export const PROVIDER_ID = "pp_payneteasy_payneteasy"

/** The sandbox approves this card; CVV2 123 = approve (notes §11). Expiry is always in the future. */
export const DEMO_CARD = {
  number: "4444555566661111",
  cvv2: "123",
  expMonth: "12",
  expYear: String(new Date().getUTCFullYear() + 3),
  holder: "Demo Shopper",
}

const ADDRESS = {
  first_name: "Demo",
  last_name: "Shopper",
  address_1: "1 Demo Street",
  city: "Berlin",
  postal_code: "10115",
  country_code: "de",
  phone: "+49301234567",
}

export interface CheckoutResult {
  cartId: string
  sessionId: string
  orderId: string
  displayId?: number
  /** Order total when the order was placed (Medusa amount). */
  orderTotal: string
  gatewayOrderId: string
  returnStatus: number
  returnLocation?: string
  callbackOutcome: string
}

export async function runCheckout(ctx: {
  backendUrl: string
  store: StoreFixture
  quantity: number
  sandbox: Sandbox
  container: MedusaContainer
}): Promise<CheckoutResult> {
  const { backendUrl, store, sandbox, container } = ctx
  const sdk = new Medusa({ baseUrl: backendUrl, publishableKey: store.publishableKey })

  const cart = await step(
    "storefront: create a cart",
    async () => {
      const { cart } = await sdk.store.cart.create({
        region_id: store.regionId,
        email: "shopper@payneteasy.demo",
        items: [{ variant_id: store.variantId, quantity: ctx.quantity }],
        shipping_address: ADDRESS,
        billing_address: ADDRESS,
      })
      return cart
    },
    (c) => `${c.id}, ${ctx.quantity} × ${store.unitPrice} ${store.currency.toUpperCase()}`
  )

  await step(
    "storefront: choose shipping",
    async () => (await sdk.store.cart.addShippingMethod(cart.id, { option_id: store.shippingOptionId })).cart,
    (c) => `cart total ${c.total} ${c.currency_code.toUpperCase()}`
  )

  const session = await step(
    "storefront: start a PaynetEasy payment session",
    async () => {
      const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart, {
        provider_id: PROVIDER_ID,
        // What a storefront sends for the hosted flow: who pays (never card data — that goes to the gateway's page).
        data: { payer: { ...payerOf(ADDRESS), email: cart.email, ip: "203.0.113.7" } },
      })
      const found = payment_collection.payment_sessions?.find((s) => s.provider_id === PROVIDER_ID)
      if (!found) throw new DemoCheckError(`no ${PROVIDER_ID} session in the payment collection`)
      const redirectUrl = (found.data as { redirectUrl?: unknown }).redirectUrl
      if (typeof redirectUrl !== "string") {
        throw new DemoCheckError(`the session has no hosted page address (data.redirectUrl); session data: ${JSON.stringify(found.data)}`)
      }
      return { id: found.id, redirectUrl, amount: String((found.data as { amount?: unknown }).amount) }
    },
    (s) => `${s.id}, ${s.amount} EUR registered, hosted page ${s.redirectUrl}`
  )

  const shopper = await step(
    "shopper: pay on the sandbox's hosted page",
    async () => {
      const result = await payHostedPage(session.redirectUrl, DEMO_CARD, { followReturn: true })
      const res = result.returnResponse
      if (!res) throw new DemoCheckError("the shopper helper did not POST the return form")
      if (res.status >= 400) throw new DemoCheckError(`our /payneteasy/return answered HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`)
      return { gatewayStatus: result.params.status, status: res.status, location: res.headers.get("location") ?? undefined }
    },
    (r) => `gateway page said "${r.gatewayStatus}"; return route → HTTP ${r.status}${r.location ? ` ${r.location}` : ""}`
  )

  const gatewayOrder = await step(
    "gateway: server callback delivered",
    async () => {
      const [order] = sandbox.control.byClientOrderId(session.id)
      if (!order) throw new DemoCheckError(`the sandbox has no order for client_orderid ${session.id}`)
      await sandbox.control.waitForOutcome(order.orderid, 15_000)
      const attempt = await waitFor("the sandbox to deliver the server callback", async () => {
        const attempts = sandbox.control.callbacks().filter((c) => c.clientOrderId === session.id)
        const delivered = attempts.find((a) => a.httpStatus !== undefined && a.httpStatus < 300)
        if (delivered) return delivered
        const failed = attempts.find((a) => a.httpStatus !== undefined || a.error)
        if (failed && attempts.length >= 3) {
          throw new DemoCheckError(`callback to ${failed.url.split("?")[0]} failed: ${failed.error ?? `HTTP ${failed.httpStatus}`}`)
        }
        return undefined
      })
      return { orderid: order.orderid, url: attempt.url.split("?")[0], status: attempt.status, httpStatus: attempt.httpStatus }
    },
    (r) => `gateway order ${r.orderid} ${r.status}; ${r.url} answered ${r.httpStatus}`
  )

  const callbackOutcome = await step(
    "medusa: callback processed by the plugin",
    async () => {
      const log = container.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)
      const row = await waitFor("the plugin to process the callback (callback log outcome)", async () => {
        const rows = (await log.listPaynetEasyCallbacks({ client_orderid: session.id, source: "callback" })) as Array<{
          outcome: string
          outcome_detail?: string | null
          type: string
          status: string
        }>
        return rows.find((r) => r.outcome !== "received")
      })
      if (row.outcome !== "processed") {
        throw new DemoCheckError(`callback ${row.type}/${row.status} ended as "${row.outcome}": ${row.outcome_detail ?? "no detail"}`)
      }
      return `${row.type} ${row.status} → ${row.outcome}${row.outcome_detail ? ` (${row.outcome_detail})` : ""}`
    },
    (s) => s
  )

  const order = await step(
    "storefront: complete the cart",
    async () => {
      // The callback may be completing this very cart (Medusa answers 409 while it holds the cart lock): retry briefly.
      for (let attempt = 1; ; attempt++) {
        try {
          const done = await sdk.store.cart.complete(cart.id)
          if (done.type !== "order") {
            throw new DemoCheckError(`cart completion returned a cart, not an order: ${describeError(done.error)}`)
          }
          return done.order
        } catch (error) {
          if ((error as { status?: number }).status === 409 && attempt < 20) {
            await new Promise((r) => setTimeout(r, 300))
            continue
          }
          throw error
        }
      }
    },
    (o) => `order ${o.id} (#${o.display_id}), total ${o.total} ${o.currency_code.toUpperCase()}`
  )

  return {
    cartId: cart.id,
    sessionId: session.id,
    orderId: order.id,
    displayId: order.display_id,
    orderTotal: String(order.total),
    gatewayOrderId: gatewayOrder.orderid,
    returnStatus: shopper.status,
    returnLocation: shopper.location,
    callbackOutcome,
  }
}

function payerOf(a: typeof ADDRESS) {
  return {
    first_name: a.first_name,
    last_name: a.last_name,
    phone: a.phone,
    address_1: a.address_1,
    city: a.city,
    postal_code: a.postal_code,
    country_code: a.country_code,
  }
}

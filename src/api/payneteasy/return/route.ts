/**
 * The shopper's return: `POST {backendUrl}/payneteasy/return` (the provider sends this address as `redirect_url`; the
 * gateway's page makes the browser POST the outcome here, gateway notes §8).
 *
 * The return is never the outcome ("Connecting Party should not use Payer redirect as a main source of information"):
 * we verify its control (through the provider), note it in the callback log (source `return`, outcome `ignored`), and
 * answer 303 to the storefront's return page with the cart id and what is known. The storefront then completes the
 * cart; the provider's authorizePayment asks STATUS, so the order reflects the gateway, not the browser. If the
 * callback came first, the order already exists and cart completion returns it.
 *
 * Storefront return URL: the provider option `storefrontReturnUrl`, which the provider writes into every session's
 * `data.storefrontReturnUrl` (null when unset, so storefront-written data cannot turn this into an open redirect).
 * Only when that is null: the plugin option `storefrontReturnUrl` (a documented fallback for setups that configure
 * the plugin, not each provider registration). Without either, a small page says the payment is being confirmed.
 * Query added: cart_id, payment_session_id, gateway_status (as the browser reported it; unconfirmed),
 * session_status (Medusa's), order_id (when an order already exists), payment_collection_id (a payment link's).
 * A payment link's session (an order's collection, no cart) started on the plugin's own page goes back to that page
 * (`/payneteasy/payment-collection/:id?order_id=…&returned=1`, a relative address on this backend), which shows the
 * receipt; one started elsewhere goes to the storefront's return page as above (core/payment-links/return-target.ts).
 * Malformed → 400; forged → 403; nothing is recorded for either.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { PAYNETEASY_MODULE } from "../../../modules/payneteasy"
import type PaynetEasyModuleService from "../../../modules/payneteasy/service"
import { cartAndOrderFor } from "../../../core/checkout/cart-and-order"
import { acceptGatewayMessage, readGatewayMessage } from "../../../core/callbacks/accept"
import { linkReturnTarget, PAYMENT_LINK_KEY } from "../../../core/payment-links/return-target"

export const AUTHENTICATE = false

async function handle(req: MedusaRequest, res: MedusaResponse) {
  const read = readGatewayMessage(
    req.scope,
    { query: req.query, body: req.method === "POST" ? req.body : undefined, headers: req.headers as Record<string, unknown> },
    "return"
  )
  const accepted = read.ok ? await acceptGatewayMessage(req.scope, read, "return") : read
  if (!accepted.ok) {
    res.status(accepted.status).type("text/plain").send(accepted.message)
    return
  }
  const service = req.scope.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)
  if (accepted.created) {
    await service.updatePaynetEasyCallbacks({
      id: accepted.row.id,
      outcome: "ignored",
      outcome_detail: "shopper return: never counts as the outcome",
      processed_at: new Date(),
    })
  }
  const session = accepted.verified.session
  const known: Record<string, string> = { gateway_status: accepted.core.status }
  if (session) {
    known.payment_session_id = session.id
    known.session_status = session.status
    const { cartId, orderId } = await cartAndOrderFor(req.scope, session.payment_collection_id)
    if (cartId) known.cart_id = cartId
    if (orderId) known.order_id = orderId
  }
  const fromSession = session?.data?.storefrontReturnUrl
  const storefront =
    (typeof fromSession === "string" && /^https?:\/\//.test(fromSession) ? fromSession : undefined) ?? service.storefrontReturnUrl()
  if (session && !known.cart_id && known.order_id) {
    // a payment link (an order's own collection): back to the page that started it (core/payment-links/return-target.ts)
    known.payment_collection_id = session.payment_collection_id
    const link = linkReturnTarget({
      origin: (session.data as Record<string, unknown> | undefined)?.[PAYMENT_LINK_KEY],
      collectionId: session.payment_collection_id,
      orderId: known.order_id,
      storefrontReturnUrl: storefront,
    })
    if (!link.addQuery) {
      const sep = link.url.includes("?") ? "&" : "?"
      res.redirect(303, `${link.url}${sep}returned=1&gateway_status=${encodeURIComponent(accepted.core.status)}`)
      return
    }
  }
  const target = storefront
  if (!target) {
    res
      .status(200)
      .type("text/html")
      .send(
        // the shopper's words only: no cart, session or order id on the page
        `<!doctype html><meta charset="utf-8"><title>Payment</title><p>Thank you. We are confirming your payment with the bank; ` +
          `please do not pay again. You can return to the shop: your order appears there as soon as it is confirmed.</p>`
      )
    return
  }
  const url = new URL(target)
  for (const [k, v] of Object.entries(known)) url.searchParams.set(k, v)
  res.redirect(303, url.toString())
}

export const POST = handle
export const GET = handle

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
 * Storefront return URL: `data.storefrontReturnUrl` of the session when the provider put one there, else the
 * plugin option `storefrontReturnUrl`. Without either, a small page says the payment is being confirmed.
 * Query added: cart_id, payment_session_id, gateway_status (as the browser reported it; unconfirmed),
 * session_status (Medusa's), order_id (when an order already exists).
 * Malformed → 400; forged → 403; nothing is recorded for either.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PAYNETEASY_MODULE } from "../../../modules/payneteasy"
import type PaynetEasyModuleService from "../../../modules/payneteasy/service"
import { acceptGatewayMessage } from "../../../workflows/payneteasy/gateway-message"

export const AUTHENTICATE = false

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string)

async function handle(req: MedusaRequest, res: MedusaResponse) {
  const accepted = await acceptGatewayMessage(
    req.scope,
    {
      query: req.query,
      body: req.method === "POST" ? req.body : undefined,
      rawBody: (req as MedusaRequest & { rawBody?: Buffer }).rawBody,
      headers: req.headers as Record<string, unknown>,
    },
    "return"
  )
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
    const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
    const { data: carts } = await query.graph({
      entity: "cart_payment_collection",
      fields: ["cart_id"],
      filters: { payment_collection_id: session.payment_collection_id },
    })
    const cartId = (carts[0] as { cart_id?: string } | undefined)?.cart_id
    if (cartId) {
      known.cart_id = cartId
      const { data: orders } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
      const orderId = (orders[0] as { order_id?: string } | undefined)?.order_id
      if (orderId) known.order_id = orderId
    }
  }
  const fromSession = session?.data?.storefrontReturnUrl
  const target =
    (typeof fromSession === "string" && /^https?:\/\//.test(fromSession) ? fromSession : undefined) ?? service.storefrontReturnUrl()
  if (!target) {
    res
      .status(200)
      .type("text/html")
      .send(
        `<!doctype html><meta charset="utf-8"><title>Payment</title><p>Thank you. Your payment is being confirmed` +
          `${known.cart_id ? ` (cart ${escapeHtml(known.cart_id)})` : ""}; you can return to the shop.</p>`
      )
    return
  }
  const url = new URL(target)
  for (const [k, v] of Object.entries(known)) url.searchParams.set(k, v)
  res.redirect(303, url.toString())
}

export const POST = handle
export const GET = handle

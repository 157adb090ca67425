/**
 * The plugin's own payment-link page (issue 50), for stores whose storefront has none: Medusa's dashboard copies
 * `{storefrontUrl}/payment-collection/{id}?order_id={order}`, so with the admin's `storefrontUrl` set to
 * `{backend}/payneteasy` the link lands here (docs/payment-links.md).
 *   GET  — the page: what is owed and a Pay button, or why it cannot be paid; after the gateway sends the shopper back
 *          (`returned=1`, api/payneteasy/return) the receipt, or that the payment is being confirmed, or the decline.
 *   POST — the button (a plain form, no JavaScript): start or resume the link's payment (core/payment-links/pay-link.ts)
 *          and answer 303 to the gateway's hosted page; a refusal or an outcome is the page again, in words.
 * Not under /store: no publishable key (the link is all the shopper has), no CORS, no authentication; the collection
 * id is the capability. The page is never cached or framed, and sends no referrer (its address is the capability).
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { scrub } from "../../../../gateway/scrub"
import { payLink, refreshLink } from "../../../../core/payment-links/pay-link"
import { pageStatus, renderLinkPage, type PageNotice } from "../../../../core/payment-links/page-html"
import { pageLanguage } from "../../../../core/payment-links/page-words"
import type { PaymentLinkView } from "../../../../core/payment-links/link-view"
import { refusalStatus } from "../../../payment-link-answers"

export const AUTHENTICATE = false

const text = (v: unknown) => (typeof v === "string" && v.length <= 200 ? v : undefined)

function send(res: MedusaResponse, status: number, html: string) {
  res
    .status(status)
    .set({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Frame-Options": "DENY",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
      "X-Content-Type-Options": "nosniff",
    })
    .send(html)
}

/** This page's own address (the form posts back to it), relative, with the link's order id. */
function selfAction(req: MedusaRequest, orderId?: string) {
  return `/payneteasy/payment-collection/${encodeURIComponent(req.params.id)}${orderId ? `?order_id=${encodeURIComponent(orderId)}` : ""}`
}

function page(req: MedusaRequest, res: MedusaResponse, view: PaymentLinkView, lang: string, orderId: string | undefined, notice?: PageNotice, reason?: string, status?: number) {
  send(res, status ?? pageStatus(view), renderLinkPage({ view, lang, action: selfAction(req, orderId), notice, reason }))
}

export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const orderId = text(req.query.order_id)
  const lang = pageLanguage(req.query.lang, req.headers["accept-language"])
  const view = await refreshLink(req.scope, req.params.id, orderId)
  let notice: PageNotice
  if (req.query.returned === "1") {
    if (view.state === "paid") notice = "receipt"
    else if (view.state === "payable" && view.declined) notice = "declined"
    else if (view.state === "payable" && view.session?.status === "pending" && req.query.gateway_status !== "declined") notice = "pending"
  }
  page(req, res, view, lang, orderId, notice)
}

export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const body = (req.body ?? {}) as Record<string, unknown>
  const orderId = text(req.query.order_id) ?? text(body.order_id)
  const lang = pageLanguage(text(body.lang) ?? req.query.lang, req.headers["accept-language"])
  try {
    const result = await payLink(req.scope, { collectionId: req.params.id, orderId, origin: "plugin", ip: req.ip })
    if (result.kind === "redirect") {
      res.set({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" }).redirect(303, result.url)
      return
    }
    if (result.kind === "refused") return page(req, res, result.view, lang, orderId, undefined, undefined, refusalStatus(result.view))
    if (result.kind === "paid") return page(req, res, result.view, lang, orderId, "receipt")
    if (result.kind === "declined") return page(req, res, result.view, lang, orderId, "declined", result.message, 402)
    return page(req, res, result.view, lang, orderId, "pending", undefined, 202)
  } catch (e) {
    // the gateway did not open a page (nothing was charged) or the request was wrong: the page again, in words
    req.scope.resolve(ContainerRegistrationKeys.LOGGER).warn(
      `PaynetEasy: payment link ${req.params.id} could not be paid: ${scrub(String((e as { message?: unknown })?.message ?? e)).slice(0, 300)}`
    )
    const view = await refreshLink(req.scope, req.params.id, orderId)
    const status = MedusaError.isMedusaError(e) && (e as MedusaError).type === MedusaError.Types.INVALID_DATA ? 400 : 502
    page(req, res, view, lang, orderId, "failed", undefined, status)
  }
}

/**
 * A server-side handler for the storefront's return URL, on the web-standard Request/Response (a Next.js App Router
 * route handler is exactly this shape: `export const GET = createReturnHandler({...})` in
 * `app/[countryCode]/(checkout)/payneteasy/return/route.ts`). It completes the cart on the server and redirects the
 * shopper to the order page, or back to checkout with a reason word, so the shopper never sees a half-finished page.
 *
 * It answers in two steps. The shopper arrives at the end of a redirect chain that began on the gateway's (or the
 * bank's) site, so the browser leaves out the storefront's `SameSite=Strict` cookies (dtc-starter's cart and auth
 * cookies): the first answer is a tiny landing page that goes on to the same URL from the storefront's own page
 * (`pne_landed=1`); that request is same-site, carries the cookies, and is the one that completes the cart, calls
 * `onSettled` (clear the cart cookie there) and redirects.
 *
 * A payment link's return (an order's collection, no cart: `payment_collection_id` and `order_id`) completes nothing:
 * it goes back to the link's page (`paymentLinkUrl`), which reads the link again and shows it paid, declined or
 * being confirmed (./payment-link.ts).
 */
import { finishReturn, readReturnParams, type PaymentOutcome, type ReturnParams, type StoreSdk } from "./checkout"
import { declineReason } from "./messages"
import { paymentLinkPath } from "./payment-link"

/** How a return ended, with the return URL's query. */
export type ReturnOutcome = PaymentOutcome & { params: ReturnParams }

/** Options of `createReturnHandler`. */
export interface ReturnHandlerOptions {
  /** The js-sdk instance (the server's: dtc-starter's `sdk` from `@lib/config`), or a function of the request. */
  sdk: StoreSdk | ((request: Request) => StoreSdk)
  /** Headers for the store API read on the server, e.g. dtc-starter's `getAuthHeaders` (the customer's token cookie). */
  headers?: (request: Request) => Record<string, string> | Promise<Record<string, string>>
  /** Where an order goes. Default `../order/<id>/confirmed`, relative to the return URL (dtc-starter's order page). */
  orderUrl?: (outcome: Extract<ReturnOutcome, { type: "order" }>, params: ReturnParams) => string
  /**
   * Where a declined or still-pending payment goes. Default
   * `../checkout?step=payment&payment=declined&reason=<declineReason>` or `…&payment=pending`; the checkout page shows
   * `returnNotice(searchParams, messages)`.
   */
  checkoutUrl?: (outcome: Exclude<ReturnOutcome, { type: "order" }>, params: ReturnParams) => string
  /**
   * Where a payment link's return goes (no cart: nothing to complete). Default
   * `../payment-collection/<collection id>?order_id=<order id>&returned=1`, relative to the return URL (the kit's
   * payment-collection page beside dtc-starter's checkout, under the same country segment).
   */
  paymentLinkUrl?: (params: ReturnParams) => string
  /** Called once the outcome is known, before the redirect: e.g. clear the cart cookie when `outcome.type === "order"`. */
  onSettled?: (outcome: ReturnOutcome, request: Request) => unknown
  /** How long the server waits for the gateway before answering with `checkoutUrl(pending)`. Default 10 s. */
  timeoutMs?: number
}

/** The query parameter that marks the second, same-site request of a return. */
export const LANDED_PARAM = "pne_landed"

const defaultOrderUrl = ({ order }: { order: { id: string } }) => `../order/${encodeURIComponent(order.id)}/confirmed`

const defaultCheckoutUrl = (outcome: Exclude<ReturnOutcome, { type: "order" }>) =>
  outcome.type === "declined"
    ? `../checkout?step=payment&payment=declined&reason=${declineReason(outcome.error)}`
    : "../checkout?step=payment&payment=pending"

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The landing page: goes on to `next` from the storefront's own page (same-site), script or not. */
function landingPage(next: string): Response {
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>…</title>` +
    `<noscript><meta http-equiv="refresh" content="0;url=${escapeHtml(next)}"></noscript></head><body>` +
    `<script>location.replace(${JSON.stringify(next).replace(/</g, "\\u003c")})</script></body></html>`
  return new Response(html, { status: 200, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } })
}

/** Makes a `(request) => Response` that finishes the return (see the file header). */
export function createReturnHandler(options: ReturnHandlerOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url)
    if (url.searchParams.get(LANDED_PARAM) !== "1") {
      url.searchParams.set(LANDED_PARAM, "1")
      return landingPage(`${url.pathname}${url.search}`)
    }
    const params = readReturnParams(request.url)
    if (params.paymentCollectionId && !params.cartId) {
      const target = options.paymentLinkUrl?.(params) ?? `..${paymentLinkPath(params.paymentCollectionId, params.orderId, { returned: true })}`
      return new Response(null, { status: 303, headers: { location: new URL(target, request.url).toString(), "cache-control": "no-store" } })
    }
    const sdk = typeof options.sdk === "function" ? options.sdk(request) : options.sdk
    const headers = options.headers ? await options.headers(request) : undefined
    // a failure while confirming is not a decline: the payment may be in progress, so the shopper reads "confirming"
    const outcome: ReturnOutcome = await finishReturn(sdk, request.url, { timeoutMs: options.timeoutMs ?? 10_000, headers })
      .catch(() => ({ type: "pending" as const, params: readReturnParams(request.url) }))
    await options.onSettled?.(outcome, request)
    const target = outcome.type === "order"
      ? (options.orderUrl ?? defaultOrderUrl)(outcome, outcome.params)
      : (options.checkoutUrl ?? defaultCheckoutUrl)(outcome, outcome.params)
    return new Response(null, { status: 303, headers: { location: new URL(target, request.url).toString(), "cache-control": "no-store" } })
  }
}

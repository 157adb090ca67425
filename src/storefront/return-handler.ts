/**
 * A server-side handler for the storefront's return URL, on the web-standard Request/Response (a Next.js App Router
 * route handler is exactly this shape: `export const GET = createReturnHandler({...})` in
 * `app/[countryCode]/payneteasy/return/route.ts`). It completes the cart on the server and redirects the shopper to
 * the order page, or back to checkout with the reason, so the shopper never sees a half-finished page.
 */
import { finishReturn, type PaymentOutcome, type ReturnParams, type StoreSdk } from "./checkout"

/** Options of `createReturnHandler`. */
export interface ReturnHandlerOptions {
  /** The js-sdk instance, or a function of the request (to pass the shopper's cookies/authorization on). */
  sdk: StoreSdk | ((request: Request) => StoreSdk)
  /** Where an order goes, e.g. `/order/${order.id}/confirmed` (relative to the request URL, or absolute). */
  orderUrl: (outcome: Extract<PaymentOutcome, { type: "order" }>, params: ReturnParams) => string
  /** Where a declined or still-pending payment goes, e.g. `/checkout?step=payment&payment=declined`. */
  checkoutUrl: (outcome: Exclude<PaymentOutcome, { type: "order" }>, params: ReturnParams) => string
  /** How long the server waits for the gateway before answering with `checkoutUrl(pending)`. Default 10 s. */
  timeoutMs?: number
}

/** Makes a `(request) => Response` that finishes the return (see the file header) and answers 303. */
export function createReturnHandler(options: ReturnHandlerOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const sdk = typeof options.sdk === "function" ? options.sdk(request) : options.sdk
    const outcome = await finishReturn(sdk, request.url, { timeoutMs: options.timeoutMs ?? 10_000 })
    const target = outcome.type === "order" ? options.orderUrl(outcome, outcome.params) : options.checkoutUrl(outcome, outcome.params)
    return new Response(null, { status: 303, headers: { location: new URL(target, request.url).toString() } })
  }
}

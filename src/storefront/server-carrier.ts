/**
 * The kit's store requests carried through a server action, so a storefront that keeps the shopper's auth token in
 * an httpOnly cookie (dtc-starter: `_medusa_jwt`) never hands it to browser JavaScript. The browser side turns the
 * storefront's server action into a `StoreSdk` (`sdkFromServerAction`); the server action answers with
 * `answerStoreRequest`, which adds the headers only the server can read and calls the storefront's own sdk.
 *
 * Two things make this safe and workable:
 *   - only the kit's own requests pass (`isKitRequest`: payment collection and sessions, cart completion and the cart's
 *     payment sessions, saved cards, a payment link's view and payment); anything else is refused, so the action is no open proxy with the shopper's token;
 *     the card route is refused too: a typed card goes from the browser to the backend, never through the storefront's
 *     server.
 *   - the answer is a plain serializable object, never a thrown error: a framework hides a server action's error text
 *     and status in production, and the kit needs the status (402 declined, 409 busy, 400 not authorized).
 */
import type { OrderLike, StoreRequestInit, StoreSdk } from "./checkout"

/** One request of the kit, as a server action receives it (plain JSON). */
export interface StoreRequest {
  path: string
  method?: "GET" | "POST" | "DELETE"
  body?: Record<string, unknown>
  query?: Record<string, string>
}

/** A server action's answer: the response body, or the failure's status and message. */
export type StoreAnswer<T = unknown> = { ok: true; body: T } | { ok: false; status?: number; message: string }

/** A storefront's server action that answers the kit's requests (its body is one `answerStoreRequest` call). */
export type StoreServerAction = (request: StoreRequest) => Promise<StoreAnswer>

const ID = "[A-Za-z0-9_-]+"
const KIT_REQUESTS: Array<{ method: string; path: RegExp }> = [
  { method: "POST", path: /^\/store\/payment-collections$/ },
  { method: "POST", path: new RegExp(`^/store/payment-collections/${ID}/payment-sessions$`) },
  { method: "POST", path: new RegExp(`^/store/carts/${ID}/complete$`) },
  { method: "GET", path: new RegExp(`^/store/carts/${ID}$`) },
  { method: "GET", path: /^\/store\/payneteasy\/cards$/ },
  { method: "DELETE", path: new RegExp(`^/store/payneteasy/cards/${ID}$`) },
  { method: "POST", path: new RegExp(`^/store/payneteasy/payment-sessions/${ID}/saved-card$`) },
  // a payment link (./payment-link.ts): its view, and paying it (a saved card needs the customer)
  { method: "GET", path: new RegExp(`^/store/payneteasy/payment-collections/${ID}$`) },
  { method: "POST", path: new RegExp(`^/store/payneteasy/payment-collections/${ID}/pay$`) },
]

/** True for a request the kit makes through a server action (see the file header); false for anything else. */
export function isKitRequest(request: Pick<StoreRequest, "path" | "method">): boolean {
  const method = request.method ?? "GET"
  return typeof request.path === "string" && KIT_REQUESTS.some((r) => r.method === method && r.path.test(request.path))
}

/** Options of `answerStoreRequest`. */
export interface AnswerOptions {
  /** Headers only the server has, e.g. dtc-starter's `await getAuthHeaders()` (the customer's bearer token). */
  headers?: Record<string, string>
  /** Called when a cart completion returned the order: clear the storefront's cart (dtc-starter: `removeCartId()`). */
  onOrder?: (order: OrderLike) => unknown
}

/**
 * The body of the storefront's server action: checks that `request` is one of the kit's (else a 403 answer, nothing
 * sent), sends it with the storefront's `sdk` and `options.headers`, and answers `{ ok, body }` or `{ ok: false,
 * status, message }`. `onOrder` runs when the answer is a placed order.
 */
export async function answerStoreRequest(sdk: StoreSdk, request: StoreRequest, options: AnswerOptions = {}): Promise<StoreAnswer> {
  if (!request || !isKitRequest(request)) return { ok: false, status: 403, message: "Not a request of the PaynetEasy storefront kit" }
  const init: StoreRequestInit = { method: request.method ?? "GET", headers: { ...options.headers } }
  if (request.body !== undefined) init.body = request.body
  if (request.query) init.query = request.query
  try {
    const body = await sdk.client.fetch<{ type?: string; order?: OrderLike }>(request.path, init)
    if (options.onOrder && /\/complete$/.test(request.path) && body?.type === "order" && body.order) await options.onOrder(body.order)
    return { ok: true, body }
  } catch (e) {
    const status = (e as { status?: unknown } | null)?.status
    return { ok: false, status: typeof status === "number" ? status : undefined, message: String((e as Error)?.message ?? e) }
  }
}

/**
 * A `StoreSdk` whose requests go through the storefront's server action (`answerStoreRequest` on the other side): a
 * failure answer is thrown again as an error with its `status`, as the js-sdk throws it.
 */
export function sdkFromServerAction(action: StoreServerAction): StoreSdk {
  return {
    client: {
      async fetch<T>(path: string, init: StoreRequestInit = {}): Promise<T> {
        const request: StoreRequest = { path, method: init.method ?? "GET" }
        if (init.body !== undefined) request.body = init.body
        if (init.query) request.query = init.query
        const answer = await action(request)
        if (answer.ok) return answer.body as T
        throw Object.assign(new Error(answer.message), { status: answer.status })
      },
    },
  }
}

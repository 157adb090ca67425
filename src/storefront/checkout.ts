/**
 * The kit's framework-neutral core: plain functions over the storefront's own `@medusajs/js-sdk` instance that drive
 * a PaynetEasy checkout through Medusa's store API and the plugin's store routes. No React, no DOM, no server code:
 * React components (./react) and non-React storefronts call these.
 *
 * Every request goes through one method, the js-sdk's `sdk.client.fetch`, so whatever the storefront's sdk adds to its
 * requests (publishable key, locale header, auth) the kit's requests carry too, and a storefront can hand the kit any
 * object with that method instead: a server action (`sdkFromServerAction`, ./server-carrier.ts) that adds the
 * shopper's httpOnly auth cookie on the server.
 *
 * The one rule they keep: the browser's word is never the outcome. Only cart completion (which makes Medusa ask the
 * gateway) places the order; a return URL's `gateway_status` is a hint for what to show while that happens.
 */
import { parseExpiry, cardDigits, type CardInput } from "./card"

/** What the kit passes to `client.fetch` (a subset of the js-sdk's FetchArgs: JSON body, query, extra headers). */
export interface StoreRequestInit {
  method?: "GET" | "POST" | "DELETE"
  body?: Record<string, unknown>
  query?: Record<string, string>
  headers?: Record<string, string>
}

/**
 * The js-sdk client the storefront already has (`new Medusa({ baseUrl, publishableKey })`), or anything with the same
 * `client.fetch` (e.g. `sdkFromServerAction(action)`). The kit needs nothing else of it, so any js-sdk 2.x fits.
 */
export interface StoreSdk {
  client: {
    // a method (not a property): the js-sdk's own signature (FetchInput, FetchArgs) is accepted as it is
    fetch<T = unknown>(path: string, init?: StoreRequestInit): Promise<T>
  }
}

/** Every PaynetEasy registration's provider id starts with this (`pp_payneteasy_<registration id>`). */
export const PAYNETEASY_PROVIDER_PREFIX = "pp_payneteasy_"

/** True for the provider id of any PaynetEasy registration (the payment step's branch, like dtc-starter's isStripeLike). */
export const isPaynetEasy = (providerId?: string | null): boolean => !!providerId && providerId.startsWith(PAYNETEASY_PROVIDER_PREFIX)

/** The payer fields the gateway requires, as the plugin reads them from session data (`data.payer`). */
export interface Payer {
  email: string
  first_name?: string
  last_name?: string
  phone?: string
  address_1?: string
  city?: string
  postal_code?: string
  country_code?: string
  province?: string
}

/** The parts of a store cart the kit reads (a `StoreCart` from the js-sdk fits). */
export interface CartLike {
  id: string
  email?: string | null
  total?: number | null
  currency_code?: string | null
  billing_address?: AddressLike | null
  shipping_address?: AddressLike | null
  payment_collection?: { id: string; payment_sessions?: PaymentSessionLike[] | null } | null
}

interface AddressLike {
  first_name?: string | null
  last_name?: string | null
  phone?: string | null
  address_1?: string | null
  city?: string | null
  postal_code?: string | null
  country_code?: string | null
  province?: string | null
}

/** A payment session as the store API returns it; `data` is the plugin's public session data. */
export interface PaymentSessionLike {
  id: string
  provider_id: string
  status: string
  amount?: unknown
  currency_code?: string
  data?: Record<string, unknown> | null
}

/** A gateway decline's reason as the plugin keeps it in session data (`data.error`). */
export interface GatewayError {
  code?: string
  message?: string
}

/** What the storefront does next with a payment session. */
export type NextStep =
  /** Send the browser to `url`: the gateway's hosted page, or the bank's 3-D Secure page. */
  | { type: "redirect"; url: string; sessionId: string }
  /** Render this HTML as the whole page: it submits itself to the bank's 3-D Secure page. */
  | { type: "html"; html: string; sessionId: string }
  /** A direct-flow session waiting for the card (post it with `submitCard`). */
  | { type: "card"; sessionId: string }
  /** The gateway approved: complete the cart (`completeOrder` / `waitForOrder`). */
  | { type: "complete"; sessionId: string }
  /** The gateway is still deciding: poll with `waitForOrder` (never offer to pay again here). */
  | { type: "pending"; sessionId: string }
  /** Declined: show the message; `payAgain` starts a new attempt. */
  | { type: "declined"; sessionId: string; error: GatewayError }

/** An order as cart completion returns it (only the fields the kit shows). */
export interface OrderLike {
  id: string
  display_id?: number
  total?: number
  currency_code?: string
  [key: string]: unknown
}

/** How a checkout ended, from `waitForOrder` / `finishReturn`. */
export type PaymentOutcome =
  | { type: "order"; order: OrderLike }
  | { type: "declined"; error: GatewayError; sessionId?: string }
  /** Still not decided when the time limit ran out: show "being confirmed", never pay again at once. */
  | { type: "pending"; sessionId?: string }
  /** The gateway asks the shopper for a step first (3-D Secure): follow it, the bank's page returns to the return URL. */
  | { type: "action"; step: Extract<NextStep, { type: "redirect" | "html" }>; sessionId?: string }

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined)

/**
 * The payer details for session creation, from the cart's billing (else shipping) address and email; `extra`
 * overrides any of them. Guests have no customer in Medusa's provider context, so the gateway's required fields
 * (email, address, city, zip, country, phone) must come from here.
 */
export function payerFromCart(cart: CartLike, extra: Partial<Payer> = {}): Payer {
  const a = cart.billing_address ?? cart.shipping_address ?? {}
  const payer: Payer = {
    email: cart.email ?? "",
    first_name: a.first_name ?? undefined,
    last_name: a.last_name ?? undefined,
    phone: a.phone ?? undefined,
    address_1: a.address_1 ?? undefined,
    city: a.city ?? undefined,
    postal_code: a.postal_code ?? undefined,
    country_code: a.country_code ?? undefined,
    province: a.province ?? undefined,
    ...extra,
  }
  for (const k of Object.keys(payer) as Array<keyof Payer>) if (payer[k] === undefined) delete payer[k]
  return payer
}

/** Options of `startPayment`. */
export interface StartPaymentOptions {
  /** The PaynetEasy registration to pay with, e.g. "pp_payneteasy_payneteasy". */
  providerId: string
  /** Defaults to `payerFromCart(cart)`. */
  payer?: Payer
  /** Keep the card for the logged-in customer once the order is placed (ignored for guests). */
  saveCard?: boolean
  /** Extra request headers (e.g. the customer's authorization on a server). */
  headers?: Record<string, string>
}

/** The PaynetEasy session of a payment collection answer (the newest one for `providerId`). */
function sessionOf(collection: { payment_sessions?: PaymentSessionLike[] | null } | null | undefined, providerId: string): PaymentSessionLike {
  const sessions = (collection?.payment_sessions ?? []).filter((s) => s.provider_id === providerId)
  const session = sessions[sessions.length - 1]
  if (!session) throw new Error(`No ${providerId} payment session was created`)
  return session
}

/** Options of `paymentSessionData`. */
export interface PaymentSessionDataOptions {
  /** Defaults to `payerFromCart(cart)`. */
  payer?: Payer
  /** Keep the card for the logged-in customer once the order is placed (ignored for guests). */
  saveCard?: boolean
  /** Pay with this saved card (`pnecard_…` from `listSavedCards`). */
  cardId?: string
}

/**
 * The `data` of a PaynetEasy payment session: the payer's details (the gateway requires them; guests have no customer
 * in Medusa's provider context), and `save_card` / `card_id` when asked. A plain JSON object, nothing secret in it (no
 * card, no CVV): what a storefront passes to its own session call, e.g. dtc-starter's server action
 * `initiatePaymentSession(cart, { provider_id, data: paymentSessionData(cart) })`, from a client component or a server one.
 */
export function paymentSessionData(cart: CartLike, options: PaymentSessionDataOptions = {}): Record<string, unknown> {
  const data: Record<string, unknown> = { payer: options.payer ?? payerFromCart(cart) }
  if (options.saveCard) data.save_card = true
  if (options.cardId) data.card_id = options.cardId
  return data
}

/**
 * Creates a payment session on the cart's payment collection (creating the collection first when the cart has none),
 * as the js-sdk's `store.payment.initiatePaymentSession` does, and returns the new session for `providerId`.
 */
async function initiateSession(
  sdk: StoreSdk, cart: CartLike, providerId: string, data: Record<string, unknown>, headers?: Record<string, string>
): Promise<PaymentSessionLike> {
  let collectionId = cart.payment_collection?.id
  if (!collectionId) {
    const { payment_collection } = await sdk.client.fetch<{ payment_collection: { id: string } }>(
      "/store/payment-collections", { method: "POST", body: { cart_id: cart.id }, headers }
    )
    collectionId = payment_collection.id
  }
  const { payment_collection } = await sdk.client.fetch<{ payment_collection: { payment_sessions?: PaymentSessionLike[] | null } }>(
    `/store/payment-collections/${encodeURIComponent(collectionId)}/payment-sessions`,
    { method: "POST", body: { provider_id: providerId, data }, headers }
  )
  return sessionOf(payment_collection, providerId)
}

/**
 * Creates the cart's PaynetEasy payment session with the payer's details (Medusa replaces any earlier session of the
 * cart) and returns it; `nextStep(session)` says what to do with it. Also the "pay again" after a decline or an
 * abandoned hosted page: a new session is a new attempt with a new gateway order.
 */
export async function startPayment(sdk: StoreSdk, cart: CartLike, options: StartPaymentOptions): Promise<PaymentSessionLike> {
  return initiateSession(sdk, cart, options.providerId, paymentSessionData(cart, options), options.headers)
}

/** Same as `startPayment`: named for the "try again" button after a decline or an abandoned hosted page. */
export const payAgain = startPayment

/** Reads the plugin's session data and says what the storefront does next (see `NextStep`). */
export function nextStep(session: PaymentSessionLike): NextStep {
  const data = session.data ?? {}
  const sessionId = session.id
  const action = data.nextAction as { type?: string; url?: string; html?: string } | null | undefined
  switch (session.status) {
    case "authorized":
    case "captured":
      return { type: "complete", sessionId }
    case "error":
    case "canceled":
      return { type: "declined", sessionId, error: (data.error as GatewayError | null | undefined) ?? {} }
    case "requires_more":
      if (action?.type === "redirect" && str(action.url)) return { type: "redirect", url: action.url!, sessionId }
      if (action?.type === "html" && str(action.html)) return { type: "html", html: action.html!, sessionId }
      return { type: "pending", sessionId }
  }
  if (data.flow === "hosted" && str(data.redirectUrl)) return { type: "redirect", url: data.redirectUrl as string, sessionId }
  if (data.flow === "direct" && !str(data.orderId) && !str(data.gatewayStatus) && data.card_id === undefined) {
    return { type: "card", sessionId }
  }
  return { type: "pending", sessionId }
}

/** Thrown by `submitCard` / `completeOrder` for an answer the kit cannot turn into a step (4xx other than a decline, 5xx). */
export class PaynetEasyCheckoutError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message)
    this.name = "PaynetEasyCheckoutError"
  }
}

const statusOf = (e: unknown): number | undefined => (e as { status?: number } | null)?.status

/**
 * Posts the typed card to the plugin's card route (`POST /store/payneteasy/payment-sessions/:id/card`) — the only
 * request that ever carries the card — and returns the next step: complete, a 3-D Secure redirect or HTML, pending,
 * or declined with the gateway's reason. The card is not kept anywhere by the kit.
 */
export async function submitCard(
  sdk: StoreSdk,
  sessionId: string,
  card: CardInput,
  options: {
    payer?: Payer
    /** Lets a decline carry the gateway's error code (read from the cart's session). */
    cartId?: string
    /** Reads that session through this one instead of `sdk` (e.g. the server-action sdk: the card itself never goes there). */
    store?: StoreSdk
  } = {}
): Promise<NextStep> {
  const exp = parseExpiry(card.expiry)
  if (!exp) throw new PaynetEasyCheckoutError("The expiry date is not a month and year", 400)
  const body = {
    card: { number: cardDigits(card.number), cvv: card.cvv.trim(), expMonth: exp.month, expYear: exp.year, holder: card.holder.trim() },
    ...(options.payer ? { payer: options.payer } : {}),
  }
  try {
    const { payment_session } = await sdk.client.fetch<{ payment_session: PaymentSessionLike }>(
      `/store/payneteasy/payment-sessions/${encodeURIComponent(sessionId)}/card`,
      { method: "POST", body }
    )
    return nextStep(payment_session)
  } catch (e) {
    if (statusOf(e) === 402) {
      const session = options.cartId ? await readPaymentSession(options.store ?? sdk, options.cartId).catch(() => undefined) : undefined
      const error = session?.id === sessionId ? (session.data?.error as GatewayError | null | undefined) : undefined
      return { type: "declined", sessionId, error: error ?? { message: (e as Error).message } }
    }
    throw new PaynetEasyCheckoutError((e as Error).message, statusOf(e))
  }
}

/** Options of `payWithSavedCard`. */
export interface SavedCardPaymentOptions {
  providerId: string
  /** The plugin's saved card id (`pnecard_…`) from `listSavedCards`. */
  cardId: string
  /** The card's security code, when the store's gateway set-up asks for it. Sent once, never kept. */
  cvv?: string
  payer?: Payer
  headers?: Record<string, string>
}

/**
 * Pays the cart with one of the logged-in customer's saved cards and returns the next step (usually `complete`,
 * or `declined` with the gateway's reason, or `pending` when the gateway has not answered: then poll, never pay again
 * at once).
 *
 * Two requests (docs/saved-cards.md): the payment session is created with `data: { payer, card_id }` (nothing secret:
 * session data refuses a CVV, and creating a session charges nothing), then the plugin's saved-card route
 * (`POST /store/payneteasy/payment-sessions/:id/saved-card`, `{ cvv2? }`) charges the card once for the payment
 * collection. The CVV, when the store asks for it, travels only in that second request and is not kept by the kit.
 */
export async function payWithSavedCard(sdk: StoreSdk, cart: CartLike, options: SavedCardPaymentOptions): Promise<NextStep> {
  let sessionId: string
  try {
    const data = paymentSessionData(cart, { payer: options.payer, cardId: options.cardId })
    sessionId = (await initiateSession(sdk, cart, options.providerId, data, options.headers)).id
  } catch (e) {
    throw new PaynetEasyCheckoutError((e as Error).message, statusOf(e))
  }
  try {
    const { payment_session } = await sdk.client.fetch<{ payment_session: PaymentSessionLike }>(
      `/store/payneteasy/payment-sessions/${encodeURIComponent(sessionId)}/saved-card`,
      { method: "POST", body: options.cvv ? { cvv2: options.cvv.trim() } : {}, headers: options.headers }
    )
    return nextStep(payment_session)
  } catch (e) {
    if (statusOf(e) === 402) {
      const session = cart.id ? await readPaymentSession(sdk, cart.id, options.headers).catch(() => undefined) : undefined
      const error = session?.id === sessionId ? (session.data?.error as GatewayError | null | undefined) : undefined
      return { type: "declined", sessionId, error: error ?? { message: (e as Error).message } }
    }
    throw new PaynetEasyCheckoutError((e as Error).message, statusOf(e))
  }
}

/** What one cart completion said. */
export type CompleteResult =
  | { type: "order"; order: OrderLike }
  /** Not authorized (yet): read the session to know whether it is pending or declined. */
  | { type: "not_authorized"; message: string }
  /** Another completion of this cart is running (409): try again in a moment. */
  | { type: "busy" }

/**
 * Completes the cart (`POST /store/carts/:id/complete`). Idempotent: when the gateway's callback already completed
 * it, Medusa returns the same order, which is how the kit finds the order of a cart whose callback came first.
 */
export async function completeOrder(sdk: StoreSdk, cartId: string, headers?: Record<string, string>): Promise<CompleteResult> {
  try {
    const res = await sdk.client.fetch<{ type: string; order?: OrderLike; error?: { message?: string } }>(
      `/store/carts/${encodeURIComponent(cartId)}/complete`, { method: "POST", headers }
    )
    if (res.type === "order" && res.order) return { type: "order", order: res.order }
    return { type: "not_authorized", message: res.error?.message ?? "The payment is not authorized" }
  } catch (e) {
    const status = statusOf(e)
    if (status === 409) return { type: "busy" }
    if (status === 400) return { type: "not_authorized", message: (e as Error).message }
    throw new PaynetEasyCheckoutError((e as Error).message, status)
  }
}

/** The cart's current PaynetEasy payment session (the newest), or undefined. */
export async function readPaymentSession(sdk: StoreSdk, cartId: string, headers?: Record<string, string>): Promise<PaymentSessionLike | undefined> {
  const { cart } = await sdk.client.fetch<{ cart: CartLike }>(`/store/carts/${encodeURIComponent(cartId)}`, {
    query: { fields: "id,*payment_collection,*payment_collection.payment_sessions" }, headers,
  })
  const sessions = ((cart as CartLike).payment_collection?.payment_sessions ?? []).filter((s) => isPaynetEasy(s.provider_id))
  return sessions[sessions.length - 1]
}

/** Options of `waitForOrder`. */
export interface WaitOptions {
  /** Give up (outcome `pending`) after this long. Default 60 s. */
  timeoutMs?: number
  /** First pause between attempts; doubles up to `maxDelayMs`. Defaults 500 ms and 4 s. */
  initialDelayMs?: number
  maxDelayMs?: number
  /** Called while the gateway is still deciding (to show "confirming…"). */
  onPending?: () => void
  signal?: AbortSignal
  headers?: Record<string, string>
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error("aborted"))
    const t = setTimeout(resolve, ms)
    signal?.addEventListener("abort", () => (clearTimeout(t), reject(signal.reason ?? new Error("aborted"))), { once: true })
  })

/**
 * Completes the cart once the gateway has decided: tries completion, and while it is not authorized reads the
 * session — `error` ends as `declined` with the gateway's reason, anything else waits (backoff) and tries again until
 * the time limit, which ends as `pending` (the order may still appear from the gateway's callback).
 */
export async function waitForOrder(sdk: StoreSdk, cartId: string, options: WaitOptions = {}): Promise<PaymentOutcome> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  let delay = options.initialDelayMs ?? 500
  let sessionId: string | undefined
  for (;;) {
    const done = await completeOrder(sdk, cartId, options.headers)
    if (done.type === "order") return done
    if (done.type === "not_authorized") {
      const session = await readPaymentSession(sdk, cartId, options.headers)
      sessionId = session?.id
      const step = session && nextStep(session)
      if (step?.type === "declined") return { type: "declined", error: step.error, sessionId }
      if (session?.status === "requires_more" && (step?.type === "redirect" || step?.type === "html")) return { type: "action", step, sessionId }
    }
    options.onPending?.()
    if (Date.now() + delay > deadline) return { type: "pending", sessionId }
    await sleep(delay, options.signal)
    delay = Math.min(delay * 2, options.maxDelayMs ?? 4_000)
  }
}

/** The query the plugin's return route adds to the storefront's return URL. */
export interface ReturnParams {
  cartId?: string
  paymentSessionId?: string
  /** What the browser carried back from the gateway: a hint, never proof. */
  gatewayStatus?: string
  sessionStatus?: string
  /** Present when the callback had already made the order. */
  orderId?: string
  /** A payment link's return (an order's collection, no cart): the collection paid (./payment-link.ts). */
  paymentCollectionId?: string
}

/**
 * Reads the return route's query (`cart_id`, `payment_session_id`, `gateway_status`, `session_status`, `order_id`,
 * `payment_collection_id`).
 */
export function readReturnParams(url: string | URL): ReturnParams {
  const q = new URL(String(url), "http://return.invalid").searchParams
  const get = (k: string) => q.get(k) ?? undefined
  return {
    cartId: get("cart_id"),
    paymentSessionId: get("payment_session_id"),
    gatewayStatus: get("gateway_status"),
    sessionStatus: get("session_status"),
    orderId: get("order_id"),
    paymentCollectionId: get("payment_collection_id"),
  }
}

/**
 * The storefront's return page in one call: reads the return URL and waits for the order (`waitForOrder`). Works the
 * same whether the shopper or the gateway's callback came first: completion returns the order the callback made.
 */
export async function finishReturn(sdk: StoreSdk, url: string | URL, options: WaitOptions = {}): Promise<PaymentOutcome & { params: ReturnParams }> {
  const params = readReturnParams(url)
  if (!params.cartId) throw new PaynetEasyCheckoutError("The return URL has no cart_id: was it opened by the payment return?", 400)
  return { ...(await waitForOrder(sdk, params.cartId, options)), params }
}

/** A saved card as the plugin shows it (masked; the gateway's card reference never reaches the storefront). */
export interface SavedCard {
  id: string
  brand?: string | null
  bin?: string | null
  last4?: string | null
  exp_month?: string | number | null
  exp_year?: string | number | null
  holder?: string | null
  created_at?: string
}

/** The logged-in customer's saved cards (`GET /store/payneteasy/cards`). */
export async function listSavedCards(sdk: StoreSdk, headers?: Record<string, string>): Promise<SavedCard[]> {
  const { cards } = await sdk.client.fetch<{ cards: SavedCard[] }>("/store/payneteasy/cards", { headers })
  return cards
}

/** Deletes one of the logged-in customer's saved cards (`DELETE /store/payneteasy/cards/:id`). */
export async function deleteSavedCard(sdk: StoreSdk, cardId: string, headers?: Record<string, string>): Promise<void> {
  await sdk.client.fetch(`/store/payneteasy/cards/${encodeURIComponent(cardId)}`, { method: "DELETE", headers })
}

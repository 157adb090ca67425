/**
 * The payment-collection page's core (issue 50): Medusa's dashboard copies "Copy payment link" as
 * `{storefront}/payment-collection/{collection id}?order_id={order id}`, and this is what such a page needs, framework
 * neutral: read the link through the plugin's store route (what the order still owes, and whether it can be paid),
 * pay it (the gateway's hosted page, or a saved card of the logged-in customer who owns the order), and turn the link
 * into what the shopper reads, in their language.
 *
 * The amount always comes from the server's view (Medusa's collection, as a decimal string) and is formatted from
 * that string, never through a float. Requests go through the storefront's sdk (`client.fetch`), so they carry its
 * publishable key, or through `sdkFromServerAction` when a saved card needs the shopper's httpOnly auth cookie.
 */
import { PaynetEasyCheckoutError, type StoreSdk } from "./checkout"
import { format, withoutIds, type PaynetEasyMessages } from "./messages"

/**
 * A payment link's state as the store route answers it. `PaymentLinkView` and this are the server's response type
 * (src/core/payment-links/link-view.ts) written for the kit, which imports no server code;
 * __tests__/payment-link.unit.spec.ts holds them equal to the server's at compile time.
 */
export type PaymentLinkState = "payable" | "paid" | "expired" | "not_an_order" | "nothing_owed"

/** `GET /store/payneteasy/payment-collections/:id`'s `payment_link`: a link as its holder may see it. */
export interface PaymentLinkView {
  id: string
  state: PaymentLinkState
  /** why it is expired: canceled, order_canceled, not_found */
  why: string | null
  /** the refusal in words (English; the kit shows its own words by `state`) */
  message: string | null
  /** what is owed, an exact decimal string in the currency's minor digits ("14.58") */
  amount: string | null
  currency_code: string | null
  order: { id: string; display_id: number | null; items: Array<{ title: string; quantity: string; unit_price: string }> } | null
  /** PaynetEasy registrations enabled in the order's region */
  provider_ids: string[]
  /** the open hosted page of this link, when one exists: paying it is resuming, not starting again */
  session: { id: string; provider_id: string; status: string; redirect_url: string | null } | null
  /** the last attempt was declined: the gateway's reason */
  declined: string | null
}

/** The pay route's answers with a 2xx status (`POST /store/payneteasy/payment-collections/:id/pay`). */
export interface PayLinkAnswer {
  payment_link: PaymentLinkView
  redirect_url?: string
  payment_session_id?: string
  resumed?: boolean
  /** "pending" (202): the outcome of an earlier attempt is not known yet; nothing new was started */
  type?: string
  message?: string
}

/** Why a link cannot be paid, as one word. */
export type PaymentLinkRefusal = "paid" | "canceled" | "order_canceled" | "not_found" | "not_an_order" | "nothing_owed"

/** Thrown by `payPaymentLink` for a link that cannot be paid: already paid, canceled, not found… (`reason`). */
export class PaymentLinkError extends Error {
  constructor(readonly reason: PaymentLinkRefusal, readonly view: PaymentLinkView, readonly status?: number) {
    super(view.message ?? `This payment link cannot be paid (${reason})`)
    this.name = "PaymentLinkError"
  }
}

/** The refusal word of a view, or undefined for a payable link. */
export function linkRefusal(view: Pick<PaymentLinkView, "state" | "why">): PaymentLinkRefusal | undefined {
  switch (view.state) {
    case "payable":
      return undefined
    case "expired":
      return view.why === "canceled" || view.why === "order_canceled" ? view.why : "not_found"
    default:
      return view.state
  }
}

const statusOf = (e: unknown): number | undefined => (e as { status?: number } | null)?.status

const path = (collectionId: string) => `/store/payneteasy/payment-collections/${encodeURIComponent(collectionId)}`

/** The view the store route answers a missing link with (its 404 body, which the js-sdk does not hand on). */
export const notFoundLink = (collectionId: string): PaymentLinkView => ({
  id: collectionId, state: "expired", why: "not_found", message: null, amount: null, currency_code: null, order: null,
  provider_ids: [], session: null, declined: null,
})

/**
 * Reads a payment link (`GET /store/payneteasy/payment-collections/:id?order_id=…`): what the order still owes on the
 * collection and whether it can be paid. Every state is a view (paid, expired, …); a link that does not exist, or
 * whose `order_id` is not the collection's order, is the not-found view. The server asks the gateway about an open
 * page first, so the view is the truth after a return from the hosted page. Other failures are thrown.
 */
export async function readPaymentLink(
  sdk: StoreSdk, collectionId: string, orderId?: string, headers?: Record<string, string>
): Promise<PaymentLinkView> {
  try {
    const { payment_link } = await sdk.client.fetch<{ payment_link: PaymentLinkView }>(path(collectionId), {
      query: orderId ? { order_id: orderId } : undefined, headers,
    })
    return payment_link
  } catch (e) {
    if (statusOf(e) === 404) return notFoundLink(collectionId)
    throw new PaynetEasyCheckoutError((e as Error).message, statusOf(e))
  }
}

/** True while a link's hosted page is open and not declined: after a return, the bank may still be deciding. */
export const linkStillDeciding = (view: Pick<PaymentLinkView, "state" | "session" | "declined">): boolean =>
  view.state === "payable" && !!view.session && !view.declined

/** Options of `waitForPaymentLink`. */
export interface WaitForLinkOptions {
  /** Give up (answer the last view) after this long. Default 30 s. */
  timeoutMs?: number
  /** First pause between reads; doubles up to `maxDelayMs`. Defaults 1 s and 4 s. */
  initialDelayMs?: number
  maxDelayMs?: number
  /** Called with every view read (to show it while waiting). */
  onView?: (view: PaymentLinkView) => void
  signal?: AbortSignal
  headers?: Record<string, string>
}

/**
 * The link after the shopper's return from the hosted page: reads it (the server asks the gateway each time) until it
 * is no longer being decided (paid, declined, expired …) or the time limit, and answers the last view. A view still
 * deciding at the end means "we are confirming your payment": never offer to pay again then.
 */
export async function waitForPaymentLink(
  sdk: StoreSdk, collectionId: string, orderId: string | undefined, options: WaitForLinkOptions = {}
): Promise<PaymentLinkView> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000)
  let delay = options.initialDelayMs ?? 1_000
  for (;;) {
    const view = await readPaymentLink(sdk, collectionId, orderId, options.headers)
    options.onView?.(view)
    if (!linkStillDeciding(view) || Date.now() + delay > deadline) return view
    await new Promise<void>((resolve, reject) => {
      if (options.signal?.aborted) return reject(options.signal.reason ?? new Error("aborted"))
      const t = setTimeout(resolve, delay)
      options.signal?.addEventListener("abort", () => (clearTimeout(t), reject(options.signal!.reason ?? new Error("aborted"))), { once: true })
    })
    delay = Math.min(delay * 2, options.maxDelayMs ?? 4_000)
  }
}

/** Options of `payPaymentLink`. */
export interface PayLinkOptions {
  /** A PaynetEasy registration of the order's region (`view.provider_ids`); default: the server chooses a hosted one. */
  providerId?: string
  /** Pay with this saved card of the logged-in customer who owns the order (`pnecard_…`, from `listSavedCards`). */
  cardId?: string
  /** The saved card's security code, when the store asks for it. Sent once, never kept. */
  cvv?: string
  headers?: Record<string, string>
}

/** How paying a link ended. */
export type PayLinkOutcome =
  /** Send the browser to the hosted page (`resumed`: the page already open for this link). */
  | { type: "redirect"; url: string; sessionId: string; resumed: boolean; view: PaymentLinkView }
  /** Paid (a saved card, or a page paid a moment ago). */
  | { type: "paid"; view: PaymentLinkView }
  /** Declined: the gateway's reason; the link can be paid again. */
  | { type: "declined"; message: string; view: PaymentLinkView }
  /** The outcome of an attempt is not known yet: show "confirming", never offer to pay again at once. */
  | { type: "pending"; message: string; view: PaymentLinkView }

/**
 * Pays a payment link (`POST /store/payneteasy/payment-collections/:id/pay`): the hosted page by default (a second
 * click, a second tab or a shopper coming back gets the same page), or a saved card (`cardId`, only for the
 * logged-in customer who owns the order: pass an sdk that carries the customer, e.g. `sdkFromServerAction`). The
 * amount is the collection's; nothing about it is sent. A link that cannot be paid throws `PaymentLinkError` with its
 * `reason` (paid, canceled, not_found …, read back from the server); other refusals `PaynetEasyCheckoutError`.
 */
export async function payPaymentLink(
  sdk: StoreSdk, collectionId: string, orderId: string | undefined, options: PayLinkOptions = {}
): Promise<PayLinkOutcome> {
  const body: Record<string, unknown> = {}
  if (orderId) body.order_id = orderId
  if (options.providerId) body.provider_id = options.providerId
  if (options.cardId) body.card_id = options.cardId
  if (options.cardId && options.cvv?.trim()) body.cvv2 = options.cvv.trim()
  let answer: PayLinkAnswer
  try {
    answer = await sdk.client.fetch<PayLinkAnswer>(`${path(collectionId)}/pay`, { method: "POST", body, headers: options.headers })
  } catch (e) {
    const status = statusOf(e)
    if (status === 402 || status === 404 || status === 409) {
      const view = await readPaymentLink(sdk, collectionId, orderId, options.headers).catch(() => undefined)
      if (status === 402) return { type: "declined", message: view?.declined ?? (e as Error).message, view: view ?? notFoundLink(collectionId) }
      const refusal = view && linkRefusal(view)
      if (view && refusal === "paid") return { type: "paid", view }
      if (view && refusal) throw new PaymentLinkError(refusal, view, status)
      // a 409 on a payable link: a payment of it is in progress (another tab); a 404 on one: the saved card is not theirs
      if (status === 409 && view) return { type: "pending", message: (e as Error).message, view }
    }
    throw new PaynetEasyCheckoutError((e as Error).message, status)
  }
  const view = answer.payment_link
  if (answer.redirect_url) {
    return { type: "redirect", url: answer.redirect_url, sessionId: answer.payment_session_id ?? "", resumed: !!answer.resumed, view }
  }
  if (answer.type === "pending") return { type: "pending", message: answer.message ?? "", view }
  if (view.state === "paid") return { type: "paid", view }
  throw new PaynetEasyCheckoutError("The payment link's answer had neither a payment page nor a payment", 502)
}

/**
 * Money for display from the server's exact decimal string ("1234.5" / "14.58", currency "eur", locale "de" →
 * "1.234,50 €"): the locale's symbols and layout come from `Intl.NumberFormat`, the digits from the string itself,
 * so no amount ever passes through a float. An amount that is not a decimal is shown as it is, with the currency.
 */
export function formatMoney(amount: string, currency: string, locale = "en"): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim())
  const code = currency.toUpperCase()
  if (!m) return `${amount} ${code}`.trim()
  const [, minus, whole, fraction = ""] = m
  let nf: Intl.NumberFormat
  try {
    nf = new Intl.NumberFormat(locale, { style: "currency", currency: code, minimumFractionDigits: fraction.length, maximumFractionDigits: fraction.length })
  } catch {
    return `${amount} ${code}`
  }
  const group = nf.formatToParts(1_000_000).find((p) => p.type === "group")?.value ?? ""
  const grouped = whole.replace(/^0+(?=\d)/, "").replace(/\B(?=(\d{3})+(?!\d))/g, group)
  return nf
    .formatToParts(minus ? -1 : 1)
    .map((p) => (p.type === "integer" ? grouped : p.type === "fraction" ? fraction : p.type === "group" ? "" : p.value))
    .join("")
}

/** One line of what is owed, as the page shows it. */
export interface PaymentLinkLine {
  title: string
  quantity: string
  /** formatted from the server's decimal string */
  unitPrice: string
}

/** What a payment-link page shows, in the shopper's words (`paymentLinkModel`). */
export interface PaymentLinkModel {
  collectionId: string
  orderId?: string
  state: PaymentLinkState
  /** why not, when it cannot be paid */
  refusal?: PaymentLinkRefusal
  /** the pay button is offered */
  canPay: boolean
  heading: string
  /** the amount owed, formatted (empty when the server gave none) */
  amount: string
  /** the server's exact amount ("14.58") and currency ("EUR") */
  amountValue: string | null
  currencyCode: string | null
  lines: PaymentLinkLine[]
  /** the state in words: paid, expired, not found, the last decline, an open page … */
  notice?: { kind: PaymentLinkRefusal | "declined" | "resume" | "confirming"; text: string }
  /** the pay button's text ("Pay €14.58 on the secure payment page") */
  payLabel: string
  /** "You will be taken to the secure payment page…" */
  hostedNote: string
  providerIds: string[]
}

const REFUSAL_TEXT: Record<PaymentLinkRefusal, keyof PaynetEasyMessages> = {
  paid: "linkPaid",
  canceled: "linkCanceled",
  order_canceled: "linkOrderCanceled",
  not_found: "linkNotFound",
  not_an_order: "linkNotAnOrder",
  nothing_owed: "linkNothingOwed",
}

/** The state of a link in the shopper's words (`messages` from `createMessages(locale)`); undefined when payable. */
export function paymentLinkNotice(view: Pick<PaymentLinkView, "state" | "why">, messages: PaynetEasyMessages): string | undefined {
  const refusal = linkRefusal(view)
  return refusal && messages[REFUSAL_TEXT[refusal]]
}

/**
 * The page's model of a link view: the heading, the lines and the amount owed in the shopper's format (from the
 * server's decimal strings), whether to offer the pay button, and the state in words. `returned`: the shopper has
 * just come back from the hosted page (the return handler's `returned=1`): a paid link reads as a receipt, and a
 * page still open and not declined as "confirming" (no pay button: the bank may still be deciding).
 */
export function paymentLinkModel(
  view: PaymentLinkView, messages: PaynetEasyMessages, locale = "en", options: { orderId?: string; returned?: boolean } = {}
): PaymentLinkModel {
  const currency = view.currency_code
  const money = (v: string | null | undefined) => (v && currency ? formatMoney(v, currency, locale) : "")
  const amount = money(view.amount)
  const displayId = view.order?.display_id
  const refusal = linkRefusal(view)
  const confirming = !!options.returned && linkStillDeciding(view)
  let notice: PaymentLinkModel["notice"]
  if (refusal === "paid" && options.returned && displayId != null) notice = { kind: "paid", text: format(messages.linkReceipt, { display_id: displayId }) }
  else if (refusal) notice = { kind: refusal, text: messages[REFUSAL_TEXT[refusal]] }
  else if (confirming) notice = { kind: "confirming", text: messages.linkConfirming }
  else if (view.declined) {
    const reason = withoutIds(view.declined).replace(/^\s*declined\s*[:\-–—]\s*/i, "").trim()
    notice = { kind: "declined", text: reason ? format(messages.linkDeclined, { reason }) : messages.declined }
  } else if (view.session) notice = { kind: "resume", text: messages.linkResume }
  return {
    collectionId: view.id,
    orderId: view.order?.id ?? options.orderId,
    state: view.state,
    refusal,
    canPay: !refusal && !confirming && !!view.amount,
    heading: displayId != null ? format(messages.linkHeading, { display_id: displayId }) : messages.linkHeadingNoOrder,
    amount,
    amountValue: view.amount,
    currencyCode: currency,
    lines: (view.order?.items ?? []).map((i) => ({ title: i.title, quantity: i.quantity, unitPrice: money(i.unit_price) })),
    notice,
    payLabel: format(messages.payOnPaymentPage, { amount }),
    hostedNote: messages.linkHosted,
    providerIds: view.provider_ids,
  }
}

/**
 * The storefront's address of a payment link's page, as the dashboard copies it (`/payment-collection/{id}?order_id=…`),
 * under `base` (e.g. "/dk" for dtc-starter's country segment). `returned` marks the shopper's return from the hosted page.
 */
export function paymentLinkPath(collectionId: string, orderId?: string, options: { base?: string; returned?: boolean } = {}): string {
  const q = new URLSearchParams()
  if (orderId) q.set("order_id", orderId)
  if (options.returned) q.set("returned", "1")
  const query = q.toString()
  return `${(options.base ?? "").replace(/\/+$/, "")}/payment-collection/${encodeURIComponent(collectionId)}${query ? `?${query}` : ""}`
}

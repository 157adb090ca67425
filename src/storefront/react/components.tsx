/**
 * The kit's React components for the payment step and the return page, built on the core (../checkout.ts): the
 * review step's pay component for the cart's session (`PaynetEasyPayment`), the hosted-page button, the direct card
 * form with 3-D Secure, saved cards, the return page and "try again". Markup is plain, with `pne-*` class names plus
 * the store's own (`className`, `classNames`), labelled for people and screen readers; `styles.css` makes it look like
 * form controls where a CSS reset (Tailwind's preflight) took that away.
 */
import { useEffect, useRef, useState, type ReactNode } from "react"
import {
  deleteSavedCard, finishReturn, isPaynetEasy, listSavedCards, nextStep, payWithSavedCard, readReturnParams, startPayment, submitCard,
  type CartLike, type OrderLike, type PaymentOutcome, type PaymentSessionLike, type ReturnParams, type SavedCard,
} from "../checkout"
import { cardBrand, cardErrors, type CardBrand, type CardInput } from "../card"
import { declineMessage, errorOutcome, format, type PaynetEasyMessages } from "../messages"
import { paymentLinkPath } from "../payment-link"
import { CardIcon, paymentMethodInfo } from "../methods"
import { usePaynetEasy, useParts, type PaynetEasyClassNames } from "./context"
import { payBlocked, statusRole, usePaymentRun, type RunState } from "./payment-run"

/** The method list's title and icon (server-safe; kept here for client components that import them from this entry). */
export { CardIcon, paymentMethodInfo }

/** Props every kit component takes for its look. */
export interface LookProps {
  /** Added to the component's outer element. */
  className?: string
  /** Added to its parts (over the provider's `classNames`). */
  classNames?: PaynetEasyClassNames
}

function StatusLine({ state, part }: { state: RunState; part: ReturnType<typeof useParts> }) {
  if (state.status === "idle") return null
  return (
    <p className={part("status", `pne-status pne-status-${state.status}`)} role={statusRole(state)} data-status={state.status}>
      {state.message}
    </p>
  )
}

/** Props shared by the pay components. */
export interface PayProps extends LookProps {
  cart: CartLike
  /** The PaynetEasy registration, e.g. "pp_payneteasy_payneteasy". */
  providerId: string
  /** Called with the placed order (e.g. redirect to the order page). */
  onOrder?: (order: OrderLike) => void
}

/**
 * The hosted-page button: sends the shopper to the gateway's page of `session` (the cart's session made by the
 * storefront's payment step), or creates a session with the payer's details first when there is none.
 */
export function HostedPayButton({ cart, providerId, session, saveCard, onOrder, children, className, classNames }: PayProps & {
  /** An existing hosted session of the cart to pay (its page); without it the button creates one. */
  session?: PaymentSessionLike
  saveCard?: boolean
  children?: ReactNode
}) {
  const { store, messages, formatAmount } = usePaynetEasy()
  const part = useParts(classNames, className)
  const { state, run } = usePaymentRun(cart.id, onOrder)
  const usable = session && !saveCard ? nextStep(session) : undefined
  return (
    <div className={part("root", "pne-hosted")}>
      <button
        type="button"
        className={part("button", "pne-pay")}
        disabled={payBlocked(state)}
        onClick={() =>
          run(async () => (usable?.type === "redirect" ? usable : nextStep(await startPayment(store, cart, { providerId, saveCard }))), messages.redirecting, true)
        }
      >
        {children ?? format(messages.payOnPaymentPage, { amount: formatAmount(cart.total, cart.currency_code) })}
      </button>
      <StatusLine state={state} part={part} />
    </div>
  )
}

const FIELD_MESSAGE: Record<keyof CardInput, keyof PaynetEasyMessages> = {
  number: "invalidNumber",
  expiry: "invalidExpiry",
  cvv: "invalidCvv",
  holder: "invalidHolder",
}

/**
 * The direct card form: number (Luhn and brand checked as typed), expiry, CVV, holder. On Pay it uses `sessionId`
 * (the cart's direct-flow session from the storefront's payment step) or creates the session (once; a declined card
 * can be retyped on the same session; a fresh one when the shopper ticks "save this card"), posts the card only to
 * the plugin's card route, from the browser, and follows the answer: 3-D Secure (redirect or the gateway's
 * self-submitting HTML), the order, a decline message. The card lives in the inputs only: it is read at submit, never
 * put in React state, and the number and CVV inputs are cleared after every attempt.
 */
export function DirectCardForm({ cart, providerId, sessionId: given, saveCard, offerSaveCard, onOrder, className, classNames }: PayProps & {
  /** The cart's direct-flow session to post the card to; without it the form creates one. */
  sessionId?: string
  /** Always keep the card (the session is created with `save_card`). */
  saveCard?: boolean
  /** Show a "save this card" checkbox (for a signed-in customer; the session is made through `server` when given). */
  offerSaveCard?: boolean
}) {
  const { sdk, store, messages, formatAmount } = usePaynetEasy()
  const part = useParts(classNames, className)
  const { state, run, setState } = usePaymentRun(cart.id, onOrder)
  const [brand, setBrand] = useState<CardBrand>("unknown")
  const [invalid, setInvalid] = useState<Array<keyof CardInput>>([])
  const sessionId = useRef<string | undefined>(saveCard ? undefined : given)
  const savedWith = useRef<boolean>(false)
  const form = useRef<HTMLFormElement>(null)

  const onSubmit = (e: { preventDefault(): void }) => {
    e.preventDefault()
    const f = form.current!
    const read = (name: string) => (f.elements.namedItem(name) as HTMLInputElement).value
    const card: CardInput = { number: read("pne-number"), expiry: read("pne-expiry"), cvv: read("pne-cvv"), holder: read("pne-holder") }
    const keep = !!saveCard || (f.elements.namedItem("pne-save-card") as HTMLInputElement | null)?.checked === true
    const errors = cardErrors(card)
    setInvalid(errors)
    if (errors.length > 0) {
      setState({ status: "error", message: messages[FIELD_MESSAGE[errors[0]]] })
      return
    }
    void run(async () => {
      try {
        if (!sessionId.current || keep !== savedWith.current) {
          sessionId.current = (await startPayment(store, cart, { providerId, saveCard: keep })).id
          savedWith.current = keep
        }
        const step = await submitCard(sdk, sessionId.current, card, { cartId: cart.id, store })
        if (step.type === "declined") sessionId.current = step.sessionId
        return step
      } finally {
        for (const name of ["pne-number", "pne-cvv"]) (f.elements.namedItem(name) as HTMLInputElement).value = ""
      }
    })
  }

  const input = part("input", "pne-input")
  const field = (name: keyof CardInput, label: string, props: Record<string, string>) => (
    <label className={part("field", `pne-field pne-field-${name}`)}>
      <span className={part("label", "pne-label")}>{label}</span>
      <input className={input} name={`pne-${name}`} aria-invalid={invalid.includes(name)} required {...props} />
    </label>
  )
  return (
    <form ref={form} className={part("root", "pne-card-form")} onSubmit={onSubmit} noValidate data-brand={brand}>
      <label className={part("field", "pne-field pne-field-number")}>
        <span className={part("label", "pne-label")}>{messages.cardNumber}</span>
        <input
          className={input}
          name="pne-number"
          inputMode="numeric"
          autoComplete="cc-number"
          aria-invalid={invalid.includes("number")}
          required
          onInput={(e) => setBrand(cardBrand((e.target as HTMLInputElement).value))}
        />
        <span className="pne-brand" aria-live="polite">{brand === "unknown" ? "" : brand}</span>
      </label>
      {field("expiry", messages.expiry, { autoComplete: "cc-exp", placeholder: "MM/YY", inputMode: "numeric" })}
      {field("cvv", messages.cvv, { autoComplete: "cc-csc", inputMode: "numeric", maxLength: "4" })}
      {field("holder", messages.holder, { autoComplete: "cc-name" })}
      {offerSaveCard && !saveCard && (
        <label className={part("field", "pne-field pne-field-save")}>
          <input type="checkbox" className={part("choice", "pne-choice")} name="pne-save-card" />
          <span className={part("label", "pne-label")}>{messages.saveCard}</span>
        </label>
      )}
      <button type="submit" className={part("button", "pne-pay")} disabled={payBlocked(state)}>
        {format(messages.payButton, { amount: formatAmount(cart.total, cart.currency_code) })}
      </button>
      <StatusLine state={state} part={part} />
    </form>
  )
}

/**
 * The logged-in customer's saved cards: list, choose one, type its CVV when the store asks for it (`askCvv`), pay
 * (through `payWithSavedCard`), or remove a card. Every request needs the customer: give the provider `server` (the
 * storefront's server action adds the httpOnly auth cookie) or an `sdk` that is signed in.
 */
export function SavedCards({ cart, providerId, onOrder, askCvv = false, className, classNames }: PayProps & { askCvv?: boolean }) {
  const { store, messages } = usePaynetEasy()
  const part = useParts(classNames, className)
  const { state, run } = usePaymentRun(cart.id, onOrder)
  const [cards, setCards] = useState<SavedCard[] | undefined>(undefined)
  const [chosen, setChosen] = useState<string | undefined>(undefined)
  const cvv = useRef<HTMLInputElement>(null)

  useEffect(() => {
    let live = true
    listSavedCards(store).then((c) => live && (setCards(c), setChosen(c[0]?.id)), () => live && setCards([]))
    return () => {
      live = false
    }
  }, [store])

  if (!cards) return null
  if (cards.length === 0) return <p className={part("root", "pne-saved-empty")}>{messages.noSavedCards}</p>
  const label = (c: SavedCard) => format(messages.useSavedCard, { brand: c.brand ?? "", last4: c.last4 ?? "" })
  return (
    <fieldset className={part("root", "pne-saved")}>
      <legend className={part("label", "pne-label")}>{messages.savedCards}</legend>
      {cards.map((c) => (
        <div key={c.id} className={part("savedCard", "pne-saved-card")}>
          <label className={part("field", "pne-field pne-field-saved")}>
            <input
              type="radio"
              className={part("choice", "pne-choice")}
              name="pne-saved-card"
              value={c.id}
              checked={chosen === c.id}
              onChange={() => setChosen(c.id)}
            />
            <span className={part("label", "pne-label")}>{`${c.brand ?? ""} •••• ${c.last4 ?? ""} ${c.exp_month ?? ""}/${c.exp_year ?? ""}`}</span>
          </label>
          <button
            type="button"
            className={part("secondaryButton", "pne-delete")}
            aria-label={`${messages.deleteCard} ${c.last4 ?? ""}`}
            onClick={async () => {
              await deleteSavedCard(store, c.id)
              setCards(cards.filter((x) => x.id !== c.id))
              if (chosen === c.id) setChosen(undefined)
            }}
          >
            {messages.deleteCard}
          </button>
        </div>
      ))}
      {askCvv && (
        <label className={part("field", "pne-field pne-field-cvv")}>
          <span className={part("label", "pne-label")}>{messages.cvv}</span>
          <input ref={cvv} className={part("input", "pne-input")} name="pne-saved-cvv" inputMode="numeric" autoComplete="cc-csc" maxLength={4} />
        </label>
      )}
      {chosen && (
        <button
          type="button"
          className={part("button", "pne-pay")}
          disabled={payBlocked(state)}
          onClick={() =>
            run(async () => {
              const code = cvv.current?.value
              if (cvv.current) cvv.current.value = ""
              return payWithSavedCard(store, cart, { providerId, cardId: chosen, cvv: code || undefined })
            })
          }
        >
          {label(cards.find((c) => c.id === chosen)!)}
        </button>
      )}
      <StatusLine state={state} part={part} />
    </fieldset>
  )
}

/** The cart's newest PaynetEasy session that can still be paid (pending), or undefined. */
export function payableSession(cart: CartLike): PaymentSessionLike | undefined {
  const sessions = (cart.payment_collection?.payment_sessions ?? []).filter((s) => isPaynetEasy(s.provider_id) && s.status === "pending")
  return sessions[sessions.length - 1]
}

/**
 * The review step's PaynetEasy part, for the session the storefront's payment step made on the cart
 * (`paymentSessionData`): the hosted flow's button to the gateway's page, or the direct flow's card form; with
 * `savedCards` (a signed-in customer) the saved cards above the form, and the card form offers to save the card.
 * Renders nothing when the cart has no PaynetEasy session to pay.
 */
export function PaynetEasyPayment({ cart, onOrder, savedCards = false, askCvv, className, classNames }: Omit<PayProps, "providerId"> & {
  /** The shopper is signed in: list their saved cards and offer to save the typed one. */
  savedCards?: boolean
  /** The store asks for a saved card's CVV. */
  askCvv?: boolean
}) {
  const session = payableSession(cart)
  if (!session) return null
  const providerId = session.provider_id
  const look = { className, classNames }
  if (session.data?.flow === "hosted") return <HostedPayButton cart={cart} providerId={providerId} session={session} onOrder={onOrder} {...look} />
  return (
    <>
      {savedCards && <SavedCards cart={cart} providerId={providerId} onOrder={onOrder} askCvv={askCvv} {...look} />}
      <DirectCardForm cart={cart} providerId={providerId} sessionId={session.id} offerSaveCard={savedCards} onOrder={onOrder} {...look} />
    </>
  )
}

/**
 * "Try again" after a decline or an abandoned hosted page: starts a fresh session on the cart (a new gateway order)
 * and follows it — to the hosted page, or, for the direct flow, hands the session over to `onCardNeeded`.
 */
export function PayAgainButton({ cartId, providerId, onOrder, onCardNeeded, className, classNames }: LookProps & {
  cartId: string
  providerId: string
  onOrder?: (order: OrderLike) => void
  onCardNeeded?: () => void
}) {
  const { store, messages } = usePaynetEasy()
  const part = useParts(classNames, className)
  const { state, run } = usePaymentRun(cartId, onOrder)
  return (
    <div className={part("root", "pne-pay-again")}>
      <button
        type="button"
        className={part("button", "pne-pay")}
        disabled={state.status === "working"}
        onClick={() =>
          run(async () => {
            const { cart } = await store.client.fetch<{ cart: CartLike }>(`/store/carts/${encodeURIComponent(cartId)}`, {
              query: { fields: "id,*payment_collection,*billing_address,*shipping_address,email,total,currency_code" },
            })
            const step = nextStep(await startPayment(store, cart, { providerId }))
            if (step.type === "card") onCardNeeded?.()
            return step
          }, messages.redirecting, true)
        }
      >
        {messages.payAgain}
      </button>
      <StatusLine state={state} part={part} />
    </div>
  )
}

/** What `usePaymentReturn` reports. */
export type ReturnState =
  | { status: "confirming" }
  | (PaymentOutcome & { status: "settled"; params: ReturnParams })
  /** The return could not be read at all (refused before anything was looked up): the message, no ids. */
  | { status: "failed"; message: string }

/**
 * The return page's logic in the browser: reads the return URL (default: the current location), waits for the order,
 * and reports confirming → settled (order / declined / pending). `onSettled` runs once with the outcome (clear the
 * storefront's cart there when it is an order). A storefront whose cart or auth cookies are `SameSite=Strict` uses
 * the server's `createReturnHandler` instead: those cookies are not sent on the return from the gateway's site.
 */
export function usePaymentReturn(url?: string, timeoutMs?: number, onSettled?: (outcome: PaymentOutcome & { params: ReturnParams }) => void): ReturnState {
  const { store, messages } = usePaynetEasy()
  const [state, setState] = useState<ReturnState>({ status: "confirming" })
  const settled = useRef(onSettled)
  settled.current = onSettled
  useEffect(() => {
    const ctrl = new AbortController()
    const href = url ?? window.location.href
    // a payment link's return (no cart to complete) goes back to the link's page, as createReturnHandler sends it
    const link = readReturnParams(href)
    if (link.paymentCollectionId && !link.cartId) {
      window.location.replace(new URL(`..${paymentLinkPath(link.paymentCollectionId, link.orderId, { returned: true })}`, href).toString())
      return () => ctrl.abort()
    }
    finishReturn(store, href, { signal: ctrl.signal, timeoutMs })
      .then((o) => {
        setState({ ...o, status: "settled" })
        settled.current?.(o)
      })
      // a failure while confirming is not a decline: unless the request was refused outright, the payment may be in
      // progress, so the page says it is being confirmed and offers no "Try again"
      .catch((e) => {
        if (ctrl.signal.aborted) return
        const out = errorOutcome(messages, e)
        setState(out.status === "pending" ? { status: "settled", type: "pending", params: {} } : { status: "failed", message: out.message })
      })
    return () => ctrl.abort()
  }, [store, messages, url, timeoutMs])
  return state
}

/**
 * The storefront's return page: "confirming…", then the order (or `renderOrder(order)`), or the decline reason with
 * a "Try again" button (`providerId`: the registration to pay with again; default the hosted one that returned here).
 */
export function PaymentReturn({ providerId, renderOrder, onCardNeeded, onSettled, timeoutMs, className, classNames }: LookProps & {
  providerId?: string
  renderOrder?: (order: OrderLike) => ReactNode
  onCardNeeded?: () => void
  onSettled?: (outcome: PaymentOutcome & { params: ReturnParams }) => void
  timeoutMs?: number
}) {
  const { messages } = usePaynetEasy()
  const part = useParts(classNames, className)
  const state = usePaymentReturn(undefined, timeoutMs, onSettled)
  const status = (kind: string) => part("status", `pne-status pne-status-${kind}`)
  if (state.status === "confirming") return <p className={status("working")} role="status">{messages.confirming}</p>
  if (state.status === "failed") return <p className={status("error")} role="alert">{state.message}</p>
  if (state.type === "order") {
    return renderOrder ? <>{renderOrder(state.order)}</> : (
      <p className={status("done")} role="status" data-order-id={state.order.id}>
        {format(messages.orderPlaced, { display_id: state.order.display_id })}
      </p>
    )
  }
  if (state.type === "pending" || state.type === "action") {
    return <p className={status("pending")} role="status">{messages.notConfirmed}</p>
  }
  return (
    <div className={part("root", "pne-return-declined")}>
      <p className={status("declined")} role="alert">{declineMessage(messages, state.error)}</p>
      {state.params.cartId && (
        <PayAgainButton cartId={state.params.cartId} providerId={providerId ?? "pp_payneteasy_payneteasy"} onCardNeeded={onCardNeeded} classNames={classNames} />
      )}
    </div>
  )
}

/**
 * The kit's React components for the payment step and the return page, built on the core (../checkout.ts):
 * method info for dtc-starter's payment list, the hosted-page button, the direct card form with 3-D Secure, saved
 * cards, the return page and "try again". Markup is plain and unstyled (class names `pne-*`), labelled for people and
 * screen readers; the store styles it.
 */
import { useEffect, useRef, useState, type ReactNode } from "react"
import {
  deleteSavedCard, finishReturn, isPaynetEasy, listSavedCards, nextStep, payWithSavedCard, startPayment, submitCard,
  type CartLike, type OrderLike, type PaymentOutcome, type ReturnParams, type SavedCard,
} from "../checkout"
import { cardBrand, cardErrors, type CardBrand, type CardInput } from "../card"
import { declineMessage, errorOutcome, format, type PaynetEasyMessages } from "../messages"
import { usePaynetEasy } from "./context"
import { payBlocked, statusRole, usePaymentRun, type RunState } from "./payment-run"

/** A card icon (inline SVG, currentColor) for the payment method list. */
export function CardIcon(props: { size?: number }) {
  const s = props.size ?? 20
  return (
    <svg width={s} height={s} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
      <rect x="2.5" y="5" width="19" height="14" rx="2" />
      <path d="M2.5 9.5h19M6 15h4" />
    </svg>
  )
}

/**
 * Title and icon for a payment provider id, or undefined when it is not PaynetEasy — for dtc-starter's
 * `paymentInfoMap` lookup: `paymentMethodInfo(id, messages) ?? paymentInfoMap[id]`.
 */
export function paymentMethodInfo(providerId: string | null | undefined, messages?: Pick<PaynetEasyMessages, "methodTitle">) {
  if (!isPaynetEasy(providerId)) return undefined
  return { title: messages?.methodTitle ?? "Card (PaynetEasy)", icon: <CardIcon /> }
}

function StatusLine({ state }: { state: RunState }) {
  if (state.status === "idle") return null
  return (
    <p className={`pne-status pne-status-${state.status}`} role={statusRole(state)} data-status={state.status}>
      {state.message}
    </p>
  )
}

/** Props shared by the pay components. */
export interface PayProps {
  cart: CartLike
  /** The PaynetEasy registration, e.g. "pp_payneteasy_payneteasy". */
  providerId: string
  /** Called with the placed order (e.g. redirect to the order page). */
  onOrder?: (order: OrderLike) => void
}

/** The hosted-page button: creates the session with the payer's details and sends the shopper to the gateway's page. */
export function HostedPayButton({ cart, providerId, saveCard, onOrder, children }: PayProps & { saveCard?: boolean; children?: ReactNode }) {
  const { sdk, messages, formatAmount } = usePaynetEasy()
  const { state, run } = usePaymentRun(cart.id, onOrder)
  return (
    <div className="pne-hosted">
      <button
        type="button"
        className="pne-pay"
        disabled={payBlocked(state)}
        onClick={() => run(async () => nextStep(await startPayment(sdk, cart, { providerId, saveCard })), messages.redirecting, true)}
      >
        {children ?? format(messages.payOnPaymentPage, { amount: formatAmount(cart.total, cart.currency_code) })}
      </button>
      <StatusLine state={state} />
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
 * The direct card form: number (Luhn and brand checked as typed), expiry, CVV, holder. On Pay it creates the
 * direct-flow session (once; a declined card can be retyped on the same session), posts the card only to the plugin's
 * card route, and follows the answer: 3-D Secure (redirect or the gateway's self-submitting HTML), the order, a
 * decline message. The card lives in the inputs only: it is read at submit, never put in React state, and the
 * number and CVV inputs are cleared after every attempt.
 */
export function DirectCardForm({ cart, providerId, saveCard, onOrder }: PayProps & { saveCard?: boolean }) {
  const { sdk, messages, formatAmount } = usePaynetEasy()
  const { state, run, setState } = usePaymentRun(cart.id, onOrder)
  const [brand, setBrand] = useState<CardBrand>("unknown")
  const [invalid, setInvalid] = useState<Array<keyof CardInput>>([])
  const sessionId = useRef<string | undefined>(undefined)
  const form = useRef<HTMLFormElement>(null)

  const onSubmit = (e: { preventDefault(): void }) => {
    e.preventDefault()
    const f = form.current!
    const read = (name: string) => (f.elements.namedItem(name) as HTMLInputElement).value
    const card: CardInput = { number: read("pne-number"), expiry: read("pne-expiry"), cvv: read("pne-cvv"), holder: read("pne-holder") }
    const errors = cardErrors(card)
    setInvalid(errors)
    if (errors.length > 0) {
      setState({ status: "error", message: messages[FIELD_MESSAGE[errors[0]]] })
      return
    }
    void run(async () => {
      try {
        if (!sessionId.current) sessionId.current = (await startPayment(sdk, cart, { providerId, saveCard })).id
        const step = await submitCard(sdk, sessionId.current, card, { cartId: cart.id })
        if (step.type === "declined") sessionId.current = step.sessionId
        return step
      } finally {
        for (const name of ["pne-number", "pne-cvv"]) (f.elements.namedItem(name) as HTMLInputElement).value = ""
      }
    })
  }

  const field = (name: keyof CardInput, label: string, props: Record<string, string>) => (
    <label className={`pne-field pne-field-${name}`}>
      <span>{label}</span>
      <input name={`pne-${name}`} aria-invalid={invalid.includes(name)} required {...props} />
    </label>
  )
  return (
    <form ref={form} className="pne-card-form" onSubmit={onSubmit} noValidate data-brand={brand}>
      <label className="pne-field pne-field-number">
        <span>{messages.cardNumber}</span>
        <input
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
      <button type="submit" className="pne-pay" disabled={payBlocked(state)}>
        {format(messages.payButton, { amount: formatAmount(cart.total, cart.currency_code) })}
      </button>
      <StatusLine state={state} />
    </form>
  )
}

/**
 * The logged-in customer's saved cards: list, choose one, type its CVV when the store asks for it (`askCvv`), pay
 * (through `payWithSavedCard`), or remove a card.
 */
export function SavedCards({ cart, providerId, onOrder, askCvv = false }: PayProps & { askCvv?: boolean }) {
  const { sdk, messages } = usePaynetEasy()
  const { state, run } = usePaymentRun(cart.id, onOrder)
  const [cards, setCards] = useState<SavedCard[] | undefined>(undefined)
  const [chosen, setChosen] = useState<string | undefined>(undefined)
  const cvv = useRef<HTMLInputElement>(null)

  useEffect(() => {
    let live = true
    listSavedCards(sdk).then((c) => live && (setCards(c), setChosen(c[0]?.id)), () => live && setCards([]))
    return () => {
      live = false
    }
  }, [sdk])

  if (!cards) return null
  if (cards.length === 0) return <p className="pne-saved-empty">{messages.noSavedCards}</p>
  const label = (c: SavedCard) => format(messages.useSavedCard, { brand: c.brand ?? "", last4: c.last4 ?? "" })
  return (
    <fieldset className="pne-saved">
      <legend>{messages.savedCards}</legend>
      {cards.map((c) => (
        <div key={c.id} className="pne-saved-card">
          <label>
            <input type="radio" name="pne-saved-card" value={c.id} checked={chosen === c.id} onChange={() => setChosen(c.id)} />
            {`${c.brand ?? ""} •••• ${c.last4 ?? ""} ${c.exp_month ?? ""}/${c.exp_year ?? ""}`}
          </label>
          <button
            type="button"
            className="pne-delete"
            aria-label={`${messages.deleteCard} ${c.last4 ?? ""}`}
            onClick={async () => {
              await deleteSavedCard(sdk, c.id)
              setCards(cards.filter((x) => x.id !== c.id))
              if (chosen === c.id) setChosen(undefined)
            }}
          >
            {messages.deleteCard}
          </button>
        </div>
      ))}
      {askCvv && (
        <label className="pne-field pne-field-cvv">
          <span>{messages.cvv}</span>
          <input ref={cvv} name="pne-saved-cvv" inputMode="numeric" autoComplete="cc-csc" maxLength={4} />
        </label>
      )}
      {chosen && (
        <button
          type="button"
          className="pne-pay"
          disabled={payBlocked(state)}
          onClick={() =>
            run(async () => {
              const code = cvv.current?.value
              if (cvv.current) cvv.current.value = ""
              return payWithSavedCard(sdk, cart, { providerId, cardId: chosen, cvv: code || undefined })
            })
          }
        >
          {label(cards.find((c) => c.id === chosen)!)}
        </button>
      )}
      <StatusLine state={state} />
    </fieldset>
  )
}

/**
 * "Try again" after a decline or an abandoned hosted page: starts a fresh session on the cart (a new gateway order)
 * and follows it — to the hosted page, or, for the direct flow, hands the session over to `onCardNeeded`.
 */
export function PayAgainButton({ cartId, providerId, onOrder, onCardNeeded }: {
  cartId: string
  providerId: string
  onOrder?: (order: OrderLike) => void
  onCardNeeded?: () => void
}) {
  const { sdk, messages } = usePaynetEasy()
  const { state, run } = usePaymentRun(cartId, onOrder)
  return (
    <div className="pne-pay-again">
      <button
        type="button"
        className="pne-pay"
        disabled={state.status === "working"}
        onClick={() =>
          run(async () => {
            const { cart } = await sdk.store.cart.retrieve(cartId, { fields: "*payment_collection,*billing_address,*shipping_address,email,total,currency_code" })
            const step = nextStep(await startPayment(sdk, cart as CartLike, { providerId }))
            if (step.type === "card") onCardNeeded?.()
            return step
          }, messages.redirecting, true)
        }
      >
        {messages.payAgain}
      </button>
      <StatusLine state={state} />
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
 * The return page's logic: reads the return URL (default: the current location), waits for the order, and reports
 * confirming → settled (order / declined / pending).
 */
export function usePaymentReturn(url?: string, timeoutMs?: number): ReturnState {
  const { sdk, messages } = usePaynetEasy()
  const [state, setState] = useState<ReturnState>({ status: "confirming" })
  useEffect(() => {
    const ctrl = new AbortController()
    finishReturn(sdk, url ?? window.location.href, { signal: ctrl.signal, timeoutMs })
      .then((o) => setState({ ...o, status: "settled" }))
      // a failure while confirming is not a decline: unless the request was refused outright, the payment may be in
      // progress, so the page says it is being confirmed and offers no "Try again"
      .catch((e) => {
        if (ctrl.signal.aborted) return
        const out = errorOutcome(messages, e)
        setState(out.status === "pending" ? { status: "settled", type: "pending", params: {} } : { status: "failed", message: out.message })
      })
    return () => ctrl.abort()
  }, [sdk, messages, url, timeoutMs])
  return state
}

/**
 * The storefront's return page: "confirming…", then the order (or `renderOrder(order)`), or the decline reason with
 * a "Try again" button (`providerId`: the registration to pay with again; default the hosted one that returned here).
 */
export function PaymentReturn({ providerId, renderOrder, onCardNeeded, timeoutMs }: {
  providerId?: string
  renderOrder?: (order: OrderLike) => ReactNode
  onCardNeeded?: () => void
  timeoutMs?: number
}) {
  const { messages } = usePaynetEasy()
  const state = usePaymentReturn(undefined, timeoutMs)
  if (state.status === "confirming") return <p className="pne-status pne-status-working" role="status">{messages.confirming}</p>
  if (state.status === "failed") return <p className="pne-status pne-status-error" role="alert">{state.message}</p>
  if (state.type === "order") {
    return renderOrder ? <>{renderOrder(state.order)}</> : (
      <p className="pne-status pne-status-done" role="status" data-order-id={state.order.id}>
        {format(messages.orderPlaced, { display_id: state.order.display_id })}
      </p>
    )
  }
  if (state.type === "pending" || state.type === "action") {
    return <p className="pne-status pne-status-pending" role="status">{messages.notConfirmed}</p>
  }
  return (
    <div className="pne-return-declined">
      <p className="pne-status pne-status-declined" role="alert">{declineMessage(messages, state.error)}</p>
      {state.params.cartId && (
        <PayAgainButton cartId={state.params.cartId} providerId={providerId ?? "pp_payneteasy_payneteasy"} onCardNeeded={onCardNeeded} />
      )}
    </div>
  )
}

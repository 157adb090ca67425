/**
 * The payment-collection page as a React component (issue 50): the page Medusa's dashboard link
 * (`/payment-collection/{id}?order_id=…`) lands on. It shows what the order still owes (its lines, the amount, in the
 * shopper's language), pays it on the gateway's hosted page (a second click or tab gets the same page back), or with a
 * saved card of the logged-in customer who owns the order, and says in words when the link is paid, expired or not
 * found. After the hosted page the kit's return handler sends the shopper back here with `returned=1`: the page reads
 * the link again (the server asks the gateway) and shows the receipt, the decline, or "confirming" until it is known.
 * Built on the core (../payment-link.ts); the amount is always the server's.
 */
import { useEffect, useMemo, useRef, useState } from "react"
import { listSavedCards, type SavedCard } from "../checkout"
import { createMessages, errorOutcome, format } from "../messages"
import {
  PaymentLinkError, payPaymentLink, paymentLinkModel, readPaymentLink, waitForPaymentLink, type PayLinkOutcome, type PaymentLinkView,
} from "../payment-link"
import { usePaynetEasy, useParts } from "./context"
import { followStep } from "./follow-step"
import { payBlocked, statusRole, type RunState } from "./payment-run"
import type { LookProps } from "./components"

/** Props of `PaymentLinkPage`. */
export interface PaymentLinkPageProps extends LookProps {
  /** The payment collection's id (the page's `[id]` segment). */
  collectionId: string
  /** The link's `order_id` query. */
  orderId?: string
  /** The link as a server component read it (`readPaymentLink`): shown at once, no loading state. */
  initialLink?: PaymentLinkView
  /** The shopper is back from the hosted page (the return handler's `returned=1`). */
  returned?: boolean
  /** The shopper is signed in: offer their saved cards (the server pays one only if they own the order and the card). */
  savedCards?: boolean
  /** The store asks for a saved card's CVV. */
  askCvv?: boolean
  /** The registration to pay with (default: the server chooses the order's hosted one). */
  providerId?: string
  /** The shopper's language for this page ("de", "ru-RU" …); default the provider's. */
  locale?: string
  /** Called once the link is paid (e.g. show the order). */
  onPaid?: (link: PaymentLinkView) => void
  /** How long a return keeps asking while the bank decides. Default 30 s. */
  confirmTimeoutMs?: number
}

/** The payment-collection page (see the file header). Needs `<PaynetEasyProvider>` above it. */
export function PaymentLinkPage({
  collectionId, orderId, initialLink, returned = false, savedCards = false, askCvv = false, providerId, locale, onPaid,
  confirmTimeoutMs = 30_000, className, classNames,
}: PaymentLinkPageProps) {
  const context = usePaynetEasy()
  const { store } = context
  const lang = locale ?? context.locale
  const messages = useMemo(() => (locale ? createMessages(locale) : context.messages), [locale, context.messages])
  const part = useParts(classNames, className)
  const [link, setLink] = useState<PaymentLinkView | undefined>(initialLink)
  const [run, setRun] = useState<RunState>({ status: "idle" })
  const [cards, setCards] = useState<SavedCard[]>([])
  const [chosen, setChosen] = useState<string | undefined>(undefined)
  // paid on this page (a saved card): shown as the receipt, as after a return
  const [paidHere, setPaidHere] = useState(false)
  const cvv = useRef<HTMLInputElement>(null)
  const paid = useRef(onPaid)
  paid.current = onPaid

  // the link, read again in the browser (always after a return: the server asks the gateway); while a return's page
  // is still being decided, read again with backoff until the time limit (waitForPaymentLink)
  useEffect(() => {
    if (initialLink && !returned) return
    const ctrl = new AbortController()
    const read = returned
      ? waitForPaymentLink(store, collectionId, orderId, { timeoutMs: confirmTimeoutMs, signal: ctrl.signal, onView: (v) => !ctrl.signal.aborted && setLink(v) })
      : readPaymentLink(store, collectionId, orderId)
    read.then(
      (view) => {
        if (ctrl.signal.aborted) return
        setLink(view)
        if (view.state === "paid") paid.current?.(view)
      },
      (e) => !ctrl.signal.aborted && setRun(errorOutcome(messages, e))
    )
    return () => ctrl.abort()
    // initialLink is the first paint only; reading again on its identity would loop with a parent that re-creates it
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, collectionId, orderId, returned, confirmTimeoutMs, messages])

  useEffect(() => {
    if (!savedCards || link?.state !== "payable") return
    let live = true
    listSavedCards(store).then((c) => live && (setCards(c), setChosen((x) => x ?? c[0]?.id)), () => live && setCards([]))
    return () => {
      live = false
    }
  }, [store, savedCards, link?.state])

  const status = (kind: string) => part("status", `pne-status pne-status-${kind}`)
  if (!link) {
    return run.status === "idle"
      ? <p className={status("working")} role="status">{messages.processing}</p>
      : <p className={status(run.status)} role={statusRole(run)}>{run.message}</p>
  }
  const model = paymentLinkModel(link, messages, lang, { orderId, returned: returned || paidHere })

  const settle = (outcome: PayLinkOutcome) => {
    setLink(outcome.view)
    if (outcome.type === "redirect") {
      setRun({ status: "working", message: messages.redirecting })
      followStep({ type: "redirect", url: outcome.url, sessionId: outcome.sessionId })
    } else if (outcome.type === "paid") {
      setPaidHere(true)
      setRun({ status: "idle" })
      paid.current?.(outcome.view)
    } else if (outcome.type === "declined") {
      setRun({ status: "declined", message: format(messages.linkDeclined, { reason: outcome.message }) })
    } else {
      setRun({ status: "pending", message: messages.linkConfirming })
    }
  }
  const pay = async (work: () => Promise<PayLinkOutcome>, workingText: string, startsOnly: boolean) => {
    setRun({ status: "working", message: workingText })
    try {
      settle(await work())
    } catch (e) {
      if (e instanceof PaymentLinkError) {
        setLink(e.view)
        setRun({ status: "idle" })
      } else if (startsOnly) {
        // only a hosted page was asked for: nothing can have been charged
        setRun({ status: "error", message: messages.notStarted })
      } else {
        setRun(errorOutcome(messages, e))
      }
    }
  }
  const blocked = payBlocked(run)
  const chosenCard = cards.find((c) => c.id === chosen)
  const noticeRole = model.notice && ["declined", "not_found", "canceled", "order_canceled", "not_an_order"].includes(model.notice.kind) ? "alert" : "status"

  return (
    <section className={part("root", "pne-link")} data-state={model.state} aria-labelledby={`pne-link-${model.collectionId}`}>
      <h1 id={`pne-link-${model.collectionId}`} className="pne-link-heading">{model.heading}</h1>
      {model.lines.length > 0 && (
        <table className="pne-link-items">
          <caption>{messages.linkItems}</caption>
          <thead>
            <tr>
              <th scope="col">{messages.linkItem}</th>
              <th scope="col">{messages.linkQuantity}</th>
              <th scope="col">{messages.linkUnitPrice}</th>
            </tr>
          </thead>
          <tbody>
            {model.lines.map((line, i) => (
              <tr key={i}>
                <td>{line.title}</td>
                <td>{line.quantity}</td>
                <td>{line.unitPrice}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {model.amount && model.state !== "paid" && (
        <p className="pne-link-due">
          <span className={part("label", "pne-label")}>{messages.linkAmountDue}</span>{" "}
          <strong className="pne-link-amount" data-amount={model.amountValue ?? undefined} data-currency={model.currencyCode ?? undefined}>
            {model.amount}
          </strong>
        </p>
      )}
      {model.notice && run.status !== "declined" && run.status !== "pending" && (
        <p className={status(model.notice.kind)} role={noticeRole} data-notice={model.notice.kind}>{model.notice.text}</p>
      )}
      {model.canPay && (
        <div className="pne-link-pay">
          <button
            type="button"
            className={part("button", "pne-pay")}
            disabled={blocked}
            onClick={() => pay(() => payPaymentLink(store, collectionId, orderId, { providerId }), messages.redirecting, true)}
          >
            {model.payLabel}
          </button>
          <p className="pne-link-hosted">{model.hostedNote}</p>
        </div>
      )}
      {model.canPay && savedCards && cards.length > 0 && (
        <fieldset className={part("root", "pne-saved")}>
          <legend className={part("label", "pne-label")}>{messages.savedCards}</legend>
          {cards.map((c) => (
            <label key={c.id} className={part("field", "pne-field pne-field-saved")}>
              <input
                type="radio"
                className={part("choice", "pne-choice")}
                name="pne-link-saved-card"
                value={c.id}
                checked={chosen === c.id}
                onChange={() => setChosen(c.id)}
              />
              <span className={part("label", "pne-label")}>{`${c.brand ?? ""} •••• ${c.last4 ?? ""} ${c.exp_month ?? ""}/${c.exp_year ?? ""}`}</span>
            </label>
          ))}
          {askCvv && (
            <label className={part("field", "pne-field pne-field-cvv")}>
              <span className={part("label", "pne-label")}>{messages.cvv}</span>
              <input ref={cvv} className={part("input", "pne-input")} name="pne-link-cvv" inputMode="numeric" autoComplete="cc-csc" maxLength={4} />
            </label>
          )}
          {chosen && (
            <button
              type="button"
              className={part("button", "pne-pay")}
              disabled={blocked}
              onClick={() => {
                const code = cvv.current?.value
                if (cvv.current) cvv.current.value = ""
                void pay(() => payPaymentLink(store, collectionId, orderId, { providerId, cardId: chosen, cvv: code || undefined }), messages.processing, false)
              }}
            >
              {format(messages.useSavedCard, { brand: chosenCard?.brand ?? "", last4: chosenCard?.last4 ?? "" })}
            </button>
          )}
        </fieldset>
      )}
      {run.status !== "idle" && (
        <p className={status(run.status)} role={statusRole(run)} data-status={run.status}>{run.message}</p>
      )}
    </section>
  )
}

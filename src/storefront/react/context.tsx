/**
 * The React side's shared state, given once by `<PaynetEasyProvider>` and read by every kit component through
 * `usePaynetEasy()`: the storefront's js-sdk instance (and, optionally, its server action for the requests that need
 * the shopper's auth cookie), the shopper's language and the store's text overrides, and class names for the parts.
 */
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react"
import type { StoreSdk } from "../checkout"
import { sdkFromServerAction, type StoreServerAction } from "../server-carrier"
import { createMessages, type PaynetEasyMessages } from "../messages"

/** Class names for the parts of the kit's components, added to their own `pne-*` class names. */
export interface PaynetEasyClassNames {
  /** The component's outer element (also its `className` prop). */
  root?: string
  /** A label that wraps one input (card number, expiry, CVV, holder, saved card CVV). */
  field?: string
  /** The visible text of a field's label. */
  label?: string
  /** Every text input. */
  input?: string
  /** Checkboxes and radio buttons (save the card, choose a saved card). */
  choice?: string
  /** The pay and "try again" buttons. */
  button?: string
  /** Secondary buttons ("remove" a saved card). */
  secondaryButton?: string
  /** The status line under a button (confirming, declined …). */
  status?: string
  /** One saved card's row. */
  savedCard?: string
}

/** What `usePaynetEasy()` returns. */
export interface PaynetEasyContextValue {
  /** The storefront's js-sdk: posts the typed card (always from the browser), and everything else without `server`. */
  sdk: StoreSdk
  /** What the other requests go through: `server` as a StoreSdk when given, else `sdk`. */
  store: StoreSdk
  locale: string
  messages: PaynetEasyMessages
  classNames: PaynetEasyClassNames
  /** Money for display in the shopper's language (`12.5, "eur"` → "€12.50"). */
  formatAmount: (amount: number | null | undefined, currency: string | null | undefined) => string
}

const Context = createContext<PaynetEasyContextValue | null>(null)

/** Props of `PaynetEasyProvider`. */
export interface PaynetEasyProviderProps {
  sdk: StoreSdk
  /**
   * The storefront's server action answering the kit's requests (`answerStoreRequest`, the core): sessions, cart
   * completion and saved cards then go through the storefront's server with the shopper's httpOnly auth cookie, and
   * the token never reaches browser JavaScript. The typed card still goes from the browser to the backend (`sdk`).
   */
  server?: StoreServerAction
  /** "en", "de", "ru" or a tag such as "de-AT"; other languages get English. Default: the document's `lang`. */
  locale?: string
  /** The store's own texts over the shipped ones. */
  messages?: Partial<PaynetEasyMessages>
  /** Class names for every part of every kit component below (each component's own `classNames` add to them). */
  classNames?: PaynetEasyClassNames
  children?: ReactNode
}

/** The document's language (`<html lang>`), read after mount (server rendering has none: English until then). */
function useDocumentLanguage(wanted: boolean): string | undefined {
  const [lang, setLang] = useState<string | undefined>(undefined)
  useEffect(() => {
    if (wanted && typeof document !== "undefined") setLang(document.documentElement.lang || undefined)
  }, [wanted])
  return lang
}

/** Gives the kit's components the js-sdk, the language and the texts. Put it around the checkout and return pages. */
export function PaynetEasyProvider({ sdk, server, locale, messages, classNames, children }: PaynetEasyProviderProps) {
  const documentLanguage = useDocumentLanguage(!locale)
  const lang = locale ?? documentLanguage ?? "en"
  const store = useMemo(() => (server ? sdkFromServerAction(server) : sdk), [server, sdk])
  const value = useMemo<PaynetEasyContextValue>(() => {
    const texts = createMessages(lang, messages)
    return {
      sdk,
      store,
      locale: lang,
      messages: texts,
      classNames: classNames ?? {},
      formatAmount: (amount, currency) =>
        amount === null || amount === undefined || !currency
          ? ""
          : new Intl.NumberFormat(lang, { style: "currency", currency: currency.toUpperCase() }).format(amount),
    }
  }, [sdk, store, lang, messages, classNames])
  return <Context.Provider value={value}>{children}</Context.Provider>
}

/** The kit's context; throws when no `<PaynetEasyProvider>` is above. */
export function usePaynetEasy(): PaynetEasyContextValue {
  const value = useContext(Context)
  if (!value) throw new Error("usePaynetEasy: wrap the checkout in <PaynetEasyProvider sdk={sdk}>")
  return value
}

/** `pne-<part>` plus the provider's and the component's class names for that part. */
export function useParts(own?: PaynetEasyClassNames, className?: string) {
  const { classNames } = usePaynetEasy()
  return (part: keyof PaynetEasyClassNames, base: string) =>
    [base, classNames[part], own?.[part], part === "root" ? className : undefined].filter(Boolean).join(" ")
}

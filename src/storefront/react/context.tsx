/**
 * The React side's shared state: the storefront's js-sdk instance, the shopper's language and the store's text
 * overrides, given once by `<PaynetEasyProvider>` and read by every kit component through `usePaynetEasy()`.
 */
import { createContext, useContext, useMemo, type ReactNode } from "react"
import type { StoreSdk } from "../checkout"
import { createMessages, type PaynetEasyMessages } from "../messages"

/** What `usePaynetEasy()` returns. */
export interface PaynetEasyContextValue {
  sdk: StoreSdk
  locale: string
  messages: PaynetEasyMessages
  /** Money for display in the shopper's language (`12.5, "eur"` → "€12.50"). */
  formatAmount: (amount: number | null | undefined, currency: string | null | undefined) => string
}

const Context = createContext<PaynetEasyContextValue | null>(null)

/** Props of `PaynetEasyProvider`. */
export interface PaynetEasyProviderProps {
  sdk: StoreSdk
  /** "en" (default), "de", "ru" or a tag such as "de-AT"; other languages get English. */
  locale?: string
  /** The store's own texts over the shipped ones. */
  messages?: Partial<PaynetEasyMessages>
  children?: ReactNode
}

/** Gives the kit's components the js-sdk, the language and the texts. Put it around the checkout and return pages. */
export function PaynetEasyProvider({ sdk, locale = "en", messages, children }: PaynetEasyProviderProps) {
  const value = useMemo<PaynetEasyContextValue>(() => {
    const texts = createMessages(locale, messages)
    return {
      sdk,
      locale,
      messages: texts,
      formatAmount: (amount, currency) =>
        amount === null || amount === undefined || !currency
          ? ""
          : new Intl.NumberFormat(locale, { style: "currency", currency: currency.toUpperCase() }).format(amount),
    }
  }, [sdk, locale, messages])
  return <Context.Provider value={value}>{children}</Context.Provider>
}

/** The kit's context; throws when no `<PaynetEasyProvider>` is above. */
export function usePaynetEasy(): PaynetEasyContextValue {
  const value = useContext(Context)
  if (!value) throw new Error("usePaynetEasy: wrap the checkout in <PaynetEasyProvider sdk={sdk}>")
  return value
}

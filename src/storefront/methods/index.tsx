/** @jsxRuntime automatic */
/**
 * `medusa-payment-payneteasy/storefront/methods`: what a storefront's payment method list and order page show for
 * PaynetEasy (a title per registration and a card icon), importable from React Server Components as well as client
 * components: plain JSX, no hooks, no context (dtc-starter's `src/lib/constants.tsx` is imported by both kinds).
 * `isPaynetEasy` is here too, for the same files.
 */
import type { ReactElement } from "react"
import { isPaynetEasy, PAYNETEASY_PROVIDER_PREFIX } from "../checkout"

export { isPaynetEasy, PAYNETEASY_PROVIDER_PREFIX }

/** A card icon (inline SVG, currentColor) for the payment method list. */
export function CardIcon(props: { size?: number; className?: string }) {
  const s = props.size ?? 20
  return (
    <svg width={s} height={s} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true" className={props.className}>
      <rect x="2.5" y="5" width="19" height="14" rx="2" />
      <path d="M2.5 9.5h19M6 15h4" />
    </svg>
  )
}

/** What a payment method list shows for one provider (dtc-starter's `paymentInfoMap` entry shape). */
export interface PaymentMethodInfo {
  title: string
  icon: ReactElement
}

/** The default title when a registration has none of its own. */
export const DEFAULT_METHOD_TITLE = "Card (PaynetEasy)"

/**
 * Title and icon for a provider id, or undefined when it is not PaynetEasy. `titles` names each registration
 * (`{ pp_payneteasy_payneteasy: "Card (secure payment page)", pp_payneteasy_direct: "Card" }`), else
 * `defaultTitle` (the shopper's language: `createMessages(locale).methodTitle`), else "Card (PaynetEasy)".
 */
export function paymentMethodInfo(
  providerId: string | null | undefined,
  titles: Record<string, string> | { methodTitle: string } = {},
  defaultTitle?: string
): PaymentMethodInfo | undefined {
  if (!isPaynetEasy(providerId)) return undefined
  const own = (titles as Record<string, string>)[providerId!]
  const fallback = defaultTitle ?? (titles as { methodTitle?: string }).methodTitle ?? DEFAULT_METHOD_TITLE
  return { title: own ?? fallback, icon: <CardIcon /> }
}

/**
 * Entries for a storefront's provider map, one per registration:
 * `paymentInfoMap = { ...paymentInfoMap, ...paynetEasyPaymentInfo({ pp_payneteasy_payneteasy: "Card (secure page)" }) }`.
 */
export function paynetEasyPaymentInfo(titles: Record<string, string>): Record<string, PaymentMethodInfo> {
  const out: Record<string, PaymentMethodInfo> = {}
  for (const id of Object.keys(titles)) {
    if (!isPaynetEasy(id)) throw new Error(`paynetEasyPaymentInfo: ${id} is not a PaynetEasy provider id (pp_payneteasy_<registration id>)`)
    out[id] = paymentMethodInfo(id, titles)!
  }
  return out
}

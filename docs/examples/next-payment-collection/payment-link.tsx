/**
 * The client half of docs/examples/next-payment-collection/page.tsx: the kit's provider and `PaymentLinkPage` with the
 * browser's js-sdk (publishable key only: a guest order's link is paid by whoever holds it). For a logged-in customer's
 * saved cards, pass `server`, the storefront's server action that adds the httpOnly auth cookie (docs/payment-links.md),
 * and `savedCards`: the backend pays a saved card only for the customer who owns the order and the card.
 */
"use client"

import Medusa from "@medusajs/js-sdk"
import type { PaymentLinkView, StoreServerAction } from "medusa-payment-payneteasy/storefront"
import { PaymentLinkPage, PaynetEasyProvider } from "medusa-payment-payneteasy/storefront/react"

// dtc-starter: `import { sdk } from "@lib/config"`
const sdk = new Medusa({
  baseUrl: process.env.NEXT_PUBLIC_MEDUSA_BACKEND_URL ?? "http://localhost:9000",
  publishableKey: process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY,
})

export function PaymentLink(props: {
  collectionId: string
  orderId?: string
  initialLink: PaymentLinkView
  returned: boolean
  locale: string
  server?: StoreServerAction
  savedCards?: boolean
}) {
  const { server, locale, ...page } = props
  return (
    <PaynetEasyProvider sdk={sdk} server={server} locale={locale}>
      <PaymentLinkPage {...page} className="flex flex-col gap-4" classNames={{ button: "contrast-btn" }} />
    </PaynetEasyProvider>
  )
}

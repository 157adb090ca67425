/**
 * A Next.js App Router page for Medusa's payment link (docs/payment-links.md): the dashboard's "Copy payment link"
 * copies `{storefront}/payment-collection/{collection id}?order_id={order id}`; in dtc-starter this file is
 * `src/app/[countryCode]/(main)/payment-collection/[id]/page.tsx` (and the dashboard's storefront URL then includes the
 * country segment, e.g. `https://shop.example/dk`). A server component: it reads the link through the store API on
 * the server (first paint with what is owed, no loading state), then hands it to the kit's client component, which
 * pays it and reads it again after the return. Typechecked with the plugin's sources (`npx tsc --noEmit`).
 */
import Medusa from "@medusajs/js-sdk"
import { createMessages, readPaymentLink } from "medusa-payment-payneteasy/storefront"
import { PaymentLink } from "./payment-link"

// dtc-starter: `import { sdk } from "@lib/config"` (the same client, with the store's publishable key)
const sdk = new Medusa({
  baseUrl: process.env.MEDUSA_BACKEND_URL ?? "http://localhost:9000",
  publishableKey: process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY,
})

type Props = {
  params: Promise<{ countryCode: string; id: string }>
  searchParams: Promise<{ order_id?: string; returned?: string }>
}

export const dynamic = "force-dynamic" // a payment link's state is never cached

export async function generateMetadata() {
  // the address is the capability to pay: no referrer to other sites, never indexed
  return { title: createMessages("en").linkHeadingNoOrder, robots: { index: false }, referrer: "no-referrer" }
}

export default async function PaymentCollectionPage({ params, searchParams }: Props) {
  const { countryCode, id } = await params
  const { order_id: orderId, returned } = await searchParams
  // every state is a view (paid, expired, not found …): the kit shows each in words, nothing throws for them
  const link = await readPaymentLink(sdk, id, orderId)
  return (
    <div className="content-container py-12">
      <PaymentLink
        collectionId={id}
        orderId={orderId}
        initialLink={link}
        returned={returned === "1"}
        locale={countryCode === "de" ? "de" : countryCode === "ru" ? "ru" : "en"}
      />
    </div>
  )
}

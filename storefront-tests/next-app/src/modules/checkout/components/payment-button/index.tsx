"use client"
// The pay button by the session's provider (dtc-starter's modules/checkout/components/payment-button).
import type { HttpTypes } from "@medusajs/types"
import { useState } from "react"
import { isManual, isPaynetEasy } from "@lib/constants"
import { placeOrder } from "@lib/data/cart"
// PaynetEasy (docs/storefront.md step 5)
import { PaynetEasyPayment, PaynetEasyProvider } from "medusa-payment-payneteasy/storefront/react"
import { sdk } from "@lib/config"
import { payneteasy } from "@lib/data/payneteasy"

type Props = { cart: HttpTypes.StoreCart; customer?: HttpTypes.StoreCustomer | null; "data-testid": string }

export default function PaymentButton({ cart, customer }: Props) {
  const paymentSession = cart.payment_collection?.payment_sessions?.[0]
  switch (true) {
    // PaynetEasy (docs/storefront.md step 5)
    case isPaynetEasy(paymentSession?.provider_id):
      return (
        <PaynetEasyProvider sdk={sdk} server={payneteasy}>
          <PaynetEasyPayment cart={cart} savedCards={!!customer} onOrder={() => placeOrder(cart.id)} />
        </PaynetEasyProvider>
      )
    case isManual(paymentSession?.provider_id):
      return <ManualPaymentButton />
    default:
      return <button disabled>Select a payment method</button>
  }
}

function ManualPaymentButton() {
  const [submitting, setSubmitting] = useState(false)
  return (
    <button disabled={submitting} onClick={() => (setSubmitting(true), placeOrder().finally(() => setSubmitting(false)))}>
      Place order
    </button>
  )
}

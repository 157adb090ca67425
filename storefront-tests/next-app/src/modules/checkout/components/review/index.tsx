"use client"
// The review step (dtc-starter's modules/checkout/components/review): the pay button once a payment collection exists.
import type { HttpTypes } from "@medusajs/types"
import { useSearchParams } from "next/navigation"
import PaymentButton from "../payment-button"

export default function Review({ cart, customer }: { cart: HttpTypes.StoreCart; customer: HttpTypes.StoreCustomer | null }) {
  const isOpen = useSearchParams().get("step") === "review"
  const previousStepsCompleted = cart.shipping_address && (cart.shipping_methods?.length ?? 0) > 0 && cart.payment_collection
  return (
    <section id="review-step">
      <h2 className="text-2xl">Review</h2>
      {isOpen && previousStepsCompleted && <PaymentButton cart={cart} customer={customer} data-testid="submit-order-button" />}
    </section>
  )
}

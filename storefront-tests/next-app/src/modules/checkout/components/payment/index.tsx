"use client"
// The payment step (dtc-starter's modules/checkout/components/payment): choose a provider, then "Continue to review"
// creates the payment session through the cart's server action.
import type { HttpTypes } from "@medusajs/types"
import { usePathname, useRouter, useSearchParams } from "next/navigation"
import { useState } from "react"
import { isPaynetEasy, paymentInfoMap } from "@lib/constants"
import { initiatePaymentSession } from "@lib/data/cart"
// PaynetEasy (docs/storefront.md step 3)
import { createMessages, paymentSessionData, returnNotice } from "medusa-payment-payneteasy/storefront"

export default function Payment({ cart, availablePaymentMethods }: { cart: HttpTypes.StoreCart; availablePaymentMethods: { id: string }[] }) {
  const activeSession = cart.payment_collection?.payment_sessions?.find((s) => s.status === "pending")
  const [selected, setSelected] = useState(activeSession?.provider_id ?? "")
  const [error, setError] = useState<string | null>(null)
  const [isLoading, setIsLoading] = useState(false)
  const searchParams = useSearchParams()
  const router = useRouter()
  const pathname = usePathname()
  const isOpen = searchParams.get("step") === "payment"
  // PaynetEasy (docs/storefront.md step 3): why the shopper is back here after the gateway's page
  const notice = returnNotice(searchParams, createMessages("en"))

  const handleSubmit = async () => {
    setIsLoading(true)
    try {
      if (activeSession?.provider_id !== selected) {
        await initiatePaymentSession(cart, {
          provider_id: selected,
          // PaynetEasy (docs/storefront.md step 3): the payer's details the gateway needs
          ...(isPaynetEasy(selected) ? { data: paymentSessionData(cart) } : {}),
        })
      }
      router.push(`${pathname}?step=review`, { scroll: false })
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setIsLoading(false)
    }
  }

  return (
    <section id="payment-step">
      <h2 className="text-2xl">Payment</h2>
      {isOpen && (
        <div className="flex flex-col gap-2">
          {notice && <p id="payment-notice" className="text-rose-500">{notice}</p>}
          {availablePaymentMethods.map((m) => (
            <label key={m.id} className="flex gap-2 items-center">
              <input type="radio" name="payment-method" value={m.id} checked={selected === m.id} onChange={() => setSelected(m.id)} />
              <span>{paymentInfoMap[m.id]?.title || m.id}</span>
              <span>{paymentInfoMap[m.id]?.icon}</span>
            </label>
          ))}
          {error && <p className="text-rose-500">{error}</p>}
          <button type="button" onClick={handleSubmit} disabled={!selected || isLoading}>Continue to review</button>
        </div>
      )}
    </section>
  )
}

// The payment methods' titles and icons (dtc-starter's src/lib/constants.tsx), imported by client and server components.
import { CreditCard } from "@medusajs/icons"
import React from "react"
// PaynetEasy (docs/storefront.md step 2)
import { isPaynetEasy, paynetEasyPaymentInfo } from "medusa-payment-payneteasy/storefront/methods"

export const paymentInfoMap: Record<string, { title: string; icon: React.JSX.Element }> = {
  pp_system_default: { title: "Manual Payment", icon: <CreditCard /> },
  // PaynetEasy (docs/storefront.md step 2)
  ...paynetEasyPaymentInfo({ pp_payneteasy_payneteasy: "Card (secure payment page)", pp_payneteasy_direct: "Card" }),
}

export const isManual = (providerId?: string) => providerId?.startsWith("pp_system_default")
// PaynetEasy (docs/storefront.md step 2)
export { isPaynetEasy }

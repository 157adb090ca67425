/**
 * Product page widget (zone product.details.side.after): mark the product as a subscription with its schedule
 * (metadata.payneteasy_recurring), change it or remove it. The card itself is ../components/subscription-schedule-form.tsx.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { DetailWidgetProps, HttpTypes } from "@medusajs/framework/types"
import { SubscriptionScheduleCard } from "../components/subscription-schedule-form"

function ProductSubscriptionWidget({ data: product }: DetailWidgetProps<HttpTypes.AdminProduct>) {
  return (
    <SubscriptionScheduleCard
      target={{ kind: "product", productId: product.id }}
      metadata={product.metadata}
    />
  )
}

export const config = defineWidgetConfig({ zone: "product.details.side.after" })

export default ProductSubscriptionWidget

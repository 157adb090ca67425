/**
 * Variant page widget (zone product_variant.details.side.after): a schedule for this variant alone
 * (its metadata.payneteasy_recurring wins over the product's). The card is ../components/subscription-schedule-form.tsx.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { DetailWidgetProps, HttpTypes } from "@medusajs/framework/types"
import { SubscriptionScheduleCard } from "../components/subscription-schedule-form"

function VariantSubscriptionWidget({ data: variant }: DetailWidgetProps<HttpTypes.AdminProductVariant>) {
  return (
    <SubscriptionScheduleCard
      target={{ kind: "variant", productId: variant.product_id!, variantId: variant.id }}
      metadata={variant.metadata}
    />
  )
}

export const config = defineWidgetConfig({ zone: "product_variant.details.side.after" })

export default VariantSubscriptionWidget

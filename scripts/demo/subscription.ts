/**
 * The demo's subscription product (issue 14): a second product whose `metadata.payneteasy_recurring` makes it a
 * monthly subscription, in the demo's sales channel with its shipping profile. Buying it on the demo shop as a
 * logged-in customer through the RSA-keyed provider sets up a recurring payment at the sandbox; a renewal is then run
 * with `POST <sandbox>/__sandbox/recurring-payments/<recurring-payment-id>/charge {"outcome":"approved"}`.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { createProductsWorkflow } from "@medusajs/medusa/core-flows"
import type { StoreFixture } from "../../integration-tests/helpers/store"

export const SUBSCRIPTION_PRICE = "9.90"

export async function seedSubscriptionProduct(container: MedusaContainer, store: StoreFixture): Promise<{ productId: string; variantId: string }> {
  const { result: [product] } = await createProductsWorkflow(container).run({
    input: {
      products: [{
        title: "Monthly coffee subscription",
        status: "published",
        shipping_profile_id: store.shippingProfileId,
        metadata: { payneteasy_recurring: { period: "month", interval: 1 } },
        options: [{ title: "Size", values: ["One bag"] }],
        variants: [{
          title: "One bag", sku: "PNE-DEMO-SUBSCRIPTION", manage_inventory: false, options: { Size: "One bag" },
          prices: [{ currency_code: store.currency, amount: Number(SUBSCRIPTION_PRICE) }],
        }],
        sales_channels: [{ id: store.salesChannelId }],
      }],
    },
  })
  return { productId: product.id, variantId: product.variants[0].id }
}

/**
 * An approved charge of a recurring payment becomes a Medusa order, as Medusa's subscription recipe does it: the same
 * customer, email, region, sales channel, addresses and shipping method as the original order, the subscription lines
 * at their original unit prices (core-flows `createOrderWorkflow`), then a payment collection for the order's total
 * (`createOrderPaymentCollectionWorkflow`), a PaynetEasy payment session naming the charge (providers/payneteasy/
 * recurring-charge-payment.ts) and its authorization, which STATUS finds approved as a sale: the payment is recorded
 * captured. The order's total must equal the charge exactly (minor units) or nothing is paid and the charge is flagged.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createOrderPaymentCollectionWorkflow, createOrderWorkflow, createPaymentSessionsWorkflow } from "@medusajs/medusa/core-flows"
import { randomBytes } from "node:crypto"
import type { RecurringChargeRow, RecurringPaymentRow } from "../../../modules/payneteasy/service"
import { toGatewayAmount } from "../../../payment-data/amounts"
import type { RecurringItem } from "./create-from-order"
import { service } from "./create-from-order"

const ADDRESS = ["first_name", "last_name", "company", "address_1", "address_2", "city", "province", "postal_code", "country_code", "phone"]
const ORIGINAL_FIELDS = [
  "id", "email", "region_id", "sales_channel_id", "customer_id", "currency_code",
  ...ADDRESS.map((f) => `shipping_address.${f}`), ...ADDRESS.map((f) => `billing_address.${f}`),
  "shipping_methods.name", "shipping_methods.amount", "shipping_methods.shipping_option_id", "shipping_methods.data",
  "shipping_methods.is_tax_inclusive",
]

const pick = (a: any) => (a ? Object.fromEntries(ADDRESS.filter((f) => a[f] != null).map((f) => [f, a[f]])) : undefined)

export type RenewalResult = { ok: true; orderId: string } | { ok: false; orderId?: string; reason: string }

export async function createRenewalOrder(container: MedusaContainer, rp: RecurringPaymentRow, charge: RecurringChargeRow): Promise<RenewalResult> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ORIGINAL_FIELDS, filters: { id: rp.order_id } })
  const original = data[0] as any
  if (!original) return { ok: false, reason: `the original order ${rp.order_id} no longer exists` }
  const items = (rp.items as unknown as RecurringItem[]).map((i) => ({
    variant_id: i.variant_id ?? undefined, title: i.title, quantity: i.quantity, unit_price: i.unit_price,
  }))
  const shipping = (original.shipping_methods ?? []).map((m: any) => ({
    name: m.name, shipping_option_id: m.shipping_option_id ?? undefined, data: m.data ?? {},
    amount: rp.includes_shipping ? m.amount : 0, is_tax_inclusive: m.is_tax_inclusive,
  }))
  const { result: order } = await createOrderWorkflow(container).run({
    input: {
      region_id: original.region_id, sales_channel_id: original.sales_channel_id, customer_id: original.customer_id,
      email: original.email, currency_code: original.currency_code, shipping_address: pick(original.shipping_address),
      billing_address: pick(original.billing_address), items, shipping_methods: shipping,
      metadata: { payneteasy_renewal_of: rp.order_id, payneteasy_recurring_payment: rp.id, payneteasy_charge: charge.id },
    } as any,
  })
  const { data: fresh } = await query.graph({ entity: "order", fields: ["id", "total", "currency_code"], filters: { id: order.id } })
  const total = toGatewayAmount((fresh[0] as any).total, rp.currency_code)
  if (total !== charge.amount) {
    return { ok: false, orderId: order.id, reason: `renewal order total ${total} differs from the charge ${charge.amount} ${charge.currency_code}: no payment recorded` }
  }
  const { result: collections } = await createOrderPaymentCollectionWorkflow(container).run({ input: { order_id: order.id, amount: (fresh[0] as any).total } })
  const collection = Array.isArray(collections) ? collections[0] : collections
  const token = randomBytes(24).toString("hex")
  await service(container).updatePaynetEasyRecurringCharges({ id: charge.id, payment_token: token, renewal_order_id: order.id })
  const { result: session } = await createPaymentSessionsWorkflow(container).run({
    input: { payment_collection_id: collection.id, provider_id: rp.provider_id!, data: { recurring_charge: token } },
  })
  await container.resolve(Modules.PAYMENT).authorizePaymentSession(session.id, {})
  await service(container).updatePaynetEasyRecurringCharges({ id: charge.id, payment_token: null })
  return { ok: true, orderId: order.id }
}

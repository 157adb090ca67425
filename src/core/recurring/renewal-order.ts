/**
 * The domain of a renewal order (the steps of core/recurring/renewal-order.ts call these functions).
 * An approved charge of a recurring payment becomes a Medusa order, as Medusa's subscription recipe does it: the same
 * customer, email, region, sales channel, addresses and shipping method as the original order, the subscription lines
 * at their original unit prices (core-flows `createOrderWorkflow`), then a payment collection for the order's total
 * (`createOrderPaymentCollectionWorkflow`), a PaynetEasy payment session naming the charge (providers/payneteasy/
 * recurring-charge-payment.ts) and its authorization, which STATUS finds approved as a sale: the payment is recorded
 * captured and booked on the order as Medusa's capture books it (book-captures.ts), so nothing shows outstanding. In a taxed region each line and the shipping carry the original's tax lines and tax-inclusiveness. The
 * order's total must equal the charge exactly (minor units) or nothing is paid and the charge is flagged.
 */
import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { randomBytes } from "node:crypto"
import type { RecurringChargeRow, RecurringPaymentRow } from "../../modules/payneteasy/service"
import { toGatewayAmount } from "../checkout/amounts"
import { service, type RecurringItem } from "./records"

const TAX_LINE = ["rate", "code", "description", "provider_id", "tax_rate_id"]
const ADDRESS = ["first_name", "last_name", "company", "address_1", "address_2", "city", "province", "postal_code", "country_code", "phone"]
const ORIGINAL_FIELDS = [
  "id", "email", "region_id", "sales_channel_id", "customer_id", "currency_code",
  ...ADDRESS.map((f) => `shipping_address.${f}`), ...ADDRESS.map((f) => `billing_address.${f}`),
  "shipping_methods.name", "shipping_methods.amount", "shipping_methods.shipping_option_id", "shipping_methods.data",
  "shipping_methods.is_tax_inclusive",
  "items.variant_id", "items.title", "items.is_tax_inclusive", ...TAX_LINE.map((f) => `items.tax_lines.${f}`),
  ...TAX_LINE.map((f) => `shipping_methods.tax_lines.${f}`),
]

const pick = (a: any) => (a ? Object.fromEntries(ADDRESS.filter((f) => a[f] != null).map((f) => [f, a[f]])) : undefined)

/** The original line's tax, as createOrderWorkflow takes it (rate, code, description, provider, tax rate). */
const taxLines = (lines: any[] | undefined) =>
  (lines ?? []).map((t) => Object.fromEntries(TAX_LINE.filter((f) => t[f] != null).map((f) => [f, f === "rate" ? Number(t[f]) : t[f]])))

/** The original order's line a subscription line repeats: same variant (or, for a deleted variant, same title). */
const originalLine = (original: any, item: RecurringItem) =>
  (original.items ?? []).find((o: any) => (item.variant_id ? o.variant_id === item.variant_id : o.title === item.title))

export type RenewalResult = { ok: true; orderId: string } | { ok: false; orderId?: string; reason: string }
/** How a charge becomes its renewal order: the workflow layer passes its runner (core never imports a workflow). */
export type RenewOrder = (container: MedusaContainer, rp: RecurringPaymentRow, charge: RecurringChargeRow) => Promise<RenewalResult>

/**
 * The input of core-flows createOrderWorkflow for the renewal of charge `charge`: the original order's customer,
 * addresses, shipping and each line's tax, the subscription lines at their unit prices. Read-only. NOT_FOUND when the
 * original order no longer exists (nothing is created then).
 */
export async function renewalOrderInput(container: MedusaContainer, rp: RecurringPaymentRow, charge: Pick<RecurringChargeRow, "id">): Promise<Record<string, unknown>> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ORIGINAL_FIELDS, filters: { id: rp.order_id } })
  const original = data[0]
  if (!original) throw new MedusaError(MedusaError.Types.NOT_FOUND, `the original order ${rp.order_id} no longer exists`)
  // Each line carries the original's tax (is_tax_inclusive and tax lines): the charge was computed from them. With the
  // region's automatic taxes on, Medusa recomputes them at today's rates (the same, unless a rate changed: then the
  // totals differ and the charge is flagged, see renewalTotalCheck); with them off, these are the order's tax.
  const items = (rp.items as unknown as RecurringItem[]).map((i) => {
    const line = originalLine(original, i)
    return {
      variant_id: i.variant_id ?? undefined, title: i.title, quantity: i.quantity, unit_price: i.unit_price,
      ...(line ? { is_tax_inclusive: line.is_tax_inclusive === true, tax_lines: taxLines(line.tax_lines) } : {}),
    }
  })
  const shipping = (original.shipping_methods ?? []).map((m: any) => ({
    name: m.name, shipping_option_id: m.shipping_option_id ?? undefined, data: m.data ?? {},
    amount: rp.includes_shipping ? m.amount : 0, is_tax_inclusive: m.is_tax_inclusive,
    ...(rp.includes_shipping ? { tax_lines: taxLines(m.tax_lines) } : {}),
  }))
  return {
    region_id: original.region_id, sales_channel_id: original.sales_channel_id, customer_id: original.customer_id,
    email: original.email, currency_code: original.currency_code, shipping_address: pick(original.shipping_address),
    billing_address: pick(original.billing_address), items, shipping_methods: shipping,
    metadata: { payneteasy_renewal_of: rp.order_id, payneteasy_recurring_payment: rp.id, payneteasy_charge: charge.id },
  }
}

export type RenewalTotalCheck = { matches: true; total: BigNumberInput } | { matches: false; total: BigNumberInput; reason: string }

/** Whether renewal order `orderId`'s total is the charge's amount exactly (minor units); read-only. */
export async function renewalTotalCheck(
  container: MedusaContainer, orderId: string, charge: Pick<RecurringChargeRow, "amount" | "currency_code">
): Promise<RenewalTotalCheck> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ["id", "total", "currency_code"], filters: { id: orderId } })
  const order = data[0]
  const total = toGatewayAmount(order.total, charge.currency_code)
  if (total !== charge.amount) {
    return { matches: false, total: order.total, reason: `renewal order total ${total} differs from the charge ${charge.amount} ${charge.currency_code}: no payment recorded` }
  }
  return { matches: true, total: order.total }
}

/** A one-time token naming the charge for its renewal payment session (recurring-charge-payment.ts claims it). */
export async function issueRenewalPaymentToken(container: MedusaContainer, chargeId: string): Promise<string> {
  const token = randomBytes(24).toString("hex")
  await service(container).updatePaynetEasyRecurringCharges({ id: chargeId, payment_token: token })
  return token
}

export async function clearRenewalPaymentToken(container: MedusaContainer, chargeId: string): Promise<void> {
  await service(container).updatePaynetEasyRecurringCharges({ id: chargeId, payment_token: null })
}

/**
 * Authorizes the renewal's payment session: the provider's STATUS finds the charge approved as a sale, so the payment
 * is recorded captured. No gateway call moves money (the gateway took it when it charged the card).
 */
export async function authorizeRenewalPayment(container: MedusaContainer, sessionId: string): Promise<string> {
  const payment = await container.resolve(Modules.PAYMENT).authorizePaymentSession(sessionId, {})
  if (!payment) throw new Error(`payment session ${sessionId} was not authorized`)
  return payment.id
}

/** The charge names its renewal order (and its payment token is spent). */
export async function linkRenewalOrder(container: MedusaContainer, chargeId: string, orderId: string): Promise<void> {
  await service(container).updatePaynetEasyRecurringCharges({ id: chargeId, renewal_order_id: orderId, payment_token: null })
}

/**
 * What the admin sees of a recurring payment (the fixed shape of issue 14) and its charges. Never the card-ref-id nor a
 * charge's payment token: the card is brand and last four only. Orders are named by their display id ("#18" in the
 * dashboard) and the admin who cancelled by e-mail (issue 35: the owner's words), read by `recurringRefs`.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { RecurringChargeRow, RecurringPaymentRow } from "../../modules/payneteasy/service"
import { userEmails } from "./users"

/** Display ids of the orders and e-mails of the admins a list of recurring payments names (empty maps = unknown). */
export type RecurringRefs = { displayIds: Map<string, number>; emails: Map<string, string> }

const NO_REFS: RecurringRefs = { displayIds: new Map(), emails: new Map() }

/** `cancelled_by` is the acting admin as the routes record it, `user:<user id>` (api/admin/payneteasy/payouts/http.ts actorOf). */
const userIdOf = (actor: string | null | undefined) => (actor ? actor.replace(/^user:/, "") : null)

/** The orders' display ids and the cancelling admins' e-mails, two reads for the whole list. */
export async function recurringRefs(container: MedusaContainer, rows: RecurringPaymentRow[], charges: RecurringChargeRow[]): Promise<RecurringRefs> {
  const orderIds = [...new Set([...rows.map((r) => r.order_id), ...charges.map((c) => c.renewal_order_id)].filter((x): x is string => !!x))]
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [orders, emails] = await Promise.all([
    orderIds.length ? query.graph({ entity: "order", fields: ["id", "display_id"], filters: { id: orderIds } }) : Promise.resolve({ data: [] }),
    userEmails(container, rows.map((r) => userIdOf(r.cancelled_by))),
  ])
  const displayIds = new Map<string, number>()
  for (const o of orders.data as Array<{ id: string; display_id?: number | null }>) if (o.display_id != null) displayIds.set(o.id, o.display_id)
  return { displayIds, emails }
}

export function chargeView(c: RecurringChargeRow, refs: RecurringRefs = NO_REFS) {
  return {
    id: c.id, gateway_order_id: c.gateway_order_id, status: c.status, amount: c.amount, currency_code: c.currency_code,
    error_code: c.error_code, error_message: c.error_message, renewal_order_id: c.renewal_order_id,
    renewal_order_display_id: c.renewal_order_id ? refs.displayIds.get(c.renewal_order_id) ?? null : null,
    note: c.note, charged_at: c.charged_at,
  }
}

export function recurringPaymentView(r: RecurringPaymentRow, charges: RecurringChargeRow[], refs: RecurringRefs = NO_REFS) {
  return {
    id: r.id, order_id: r.order_id, order_display_id: refs.displayIds.get(r.order_id) ?? null, customer_id: r.customer_id,
    recurring_payment_id: r.recurring_payment_id, amount: r.amount,
    currency_code: r.currency_code, period: r.period, interval: r.interval, status: r.status, reason: r.reason,
    card: r.card_last4 ? { brand: r.card_brand, last4: r.card_last4 } : null, next_charge_at: r.next_charge_at,
    /** whether "Retry the charge" can charge a card (past due, and the gateway holds the subscription's card reference) */
    can_retry_charge: r.status === "past_due" && !!r.card_ref_id && !!r.provider_id,
    created_at: r.created_at, cancelled_at: r.cancelled_at, cancelled_by: r.cancelled_by,
    cancelled_by_email: r.cancelled_by ? refs.emails.get(userIdOf(r.cancelled_by)!) ?? null : null,
    gateway_cancel: r.gateway_cancel, gateway_cancel_reason: r.gateway_cancel_reason,
    charges: charges.filter((c) => c.recurring_payment_row_id === r.id).map((c) => chargeView(c, refs)),
  }
}

/** The views of `rows` with their charges, orders and admins named (the list and action routes answer these). */
export async function recurringPaymentViews(container: MedusaContainer, rows: RecurringPaymentRow[], charges: RecurringChargeRow[]) {
  const refs = await recurringRefs(container, rows, charges)
  return rows.map((r) => recurringPaymentView(r, charges, refs))
}

/**
 * Later events on a gateway order — return, reversal, chargeback, a capture or void started outside Medusa — arrive
 * by callback (with `notify_url`, gateway notes §7). Core Medusa has no place for them and we must not move money on
 * them (a chargeback is the bank taking money back; re-doing it in Medusa would call the gateway again). So they are:
 * - always in the callback log (the caller records them before we get here);
 * - appended to the order's `metadata.payneteasy_events` (shown in the admin's order metadata), or to the payment's
 *   metadata when there is no order yet — one entry per callback-log row, so a replay adds nothing;
 * - announced as the event `payneteasy.gateway_event`, so a store can react (e.g. open a dispute task).
 * An entry from a callback says `confirmed: false`: the callback's control covers status + orderid + client_orderid
 * only, not the type or the amount (gateway notes §7). A reader must treat it as "the gateway reported" and check
 * the gateway's back office before acting on it. An entry the reconciliation wrote (source `reconcile`: a capture /
 * return it followed with STATUS by serial number) says `confirmed: true`.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { CallbackRow } from "../../modules/payneteasy/service"
import { cartAndOrderFor } from "./cart-links"

export const GATEWAY_EVENT = "payneteasy.gateway_event"
const MAX_EVENTS = 100

export type GatewayEventEntry = {
  callback_id: string
  type: string
  status: string
  amount: string | null
  currency: string | null
  orderid: string
  reason: string | null
  received_at: string
  /** false: reported by a control-verified callback; true: learned from a STATUS call (see the header). */
  confirmed: boolean
}

function entryFor(row: CallbackRow): GatewayEventEntry {
  return {
    callback_id: row.id,
    type: row.type,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    orderid: row.orderid,
    reason: row.error_message ?? row.error_code ?? null,
    received_at: new Date(row.received_at).toISOString(),
    confirmed: row.source === "reconcile",
  }
}

function appended(metadata: Record<string, unknown> | null | undefined, entry: GatewayEventEntry) {
  const events = Array.isArray(metadata?.payneteasy_events) ? (metadata!.payneteasy_events as GatewayEventEntry[]) : []
  if (events.some((e) => e.callback_id === entry.callback_id)) {
    return undefined
  }
  return { ...(metadata ?? {}), payneteasy_events: [...events, entry].slice(-MAX_EVENTS) }
}

export async function reflectLaterEvent(
  container: MedusaContainer,
  row: CallbackRow,
  paymentCollectionId: string | undefined
): Promise<string> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const entry = entryFor(row)
  let where = "callback log only"
  let orderId: string | undefined
  let paymentId: string | undefined
  if (paymentCollectionId && row.session_id) {
    orderId = (await cartAndOrderFor(container, paymentCollectionId)).orderId
    const { data: payments } = await query.graph({
      entity: "payment",
      fields: ["id", "metadata"],
      filters: { payment_session_id: row.session_id },
    })
    const payment = payments[0] as { id: string; metadata?: Record<string, unknown> | null } | undefined
    paymentId = payment?.id
    if (orderId) {
      const orderModule = container.resolve(Modules.ORDER)
      const order = await orderModule.retrieveOrder(orderId, { select: ["id", "metadata"] })
      const metadata = appended(order.metadata, entry)
      if (metadata) {
        await orderModule.updateOrders(orderId, { metadata })
      }
      where = `order ${orderId} metadata.payneteasy_events`
    } else if (payment) {
      const metadata = appended(payment.metadata, entry)
      if (metadata) {
        const paymentModule = container.resolve(Modules.PAYMENT)
        // UpdatePaymentDTO types only `id`, but the module passes the rest to the Payment row (no provider call).
        await paymentModule.updatePayment({ id: payment.id, metadata } as { id: string })
      }
      where = `payment ${payment.id} metadata.payneteasy_events`
    }
  }
  const eventBus = container.resolve(Modules.EVENT_BUS)
  await eventBus.emit({
    name: GATEWAY_EVENT,
    data: {
      callback_id: row.id,
      type: row.type,
      status: row.status,
      amount: row.amount,
      currency: row.currency,
      order_id: orderId,
      payment_id: paymentId,
      session_id: row.session_id,
      confirmed: entry.confirmed,
    },
  })
  return `${row.type} ${row.status} recorded (${where})`
}

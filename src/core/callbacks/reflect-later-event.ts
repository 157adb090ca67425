/**
 * Later events on a gateway order — return, reversal, chargeback, a capture or void started outside Medusa — arrive
 * by callback (with `notify_url`, gateway notes §7) or are learned by reconciliation. Core Medusa has no place for
 * them and we must not move money on them (a chargeback is the bank taking money back; re-doing it in Medusa would
 * call the gateway again). Once STATUS has confirmed one (gateway/later-event.ts; reconciliation asks STATUS by serial
 * itself), and only then, it is:
 * - appended to the order's `metadata.payneteasy_events` (shown in the admin's order metadata), or to the payment's
 *   metadata when there is no order yet — one entry per callback-log row and per gateway transaction (serial number)
 *   and reporter, so neither a redelivery nor a replay under another event key adds a second one;
 * - announced as the event `payneteasy.gateway_event`, so a store can react (e.g. open a dispute task).
 * Every value in an entry is the gateway's STATUS answer, never the callback's word: `confirmed` is always true (kept
 * so readers of older entries, which were written unconfirmed, can tell them apart).
 * An unconfirmable callback never gets here: it stays in the callback log only (process-callback.ts).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { cartAndOrderFor } from "../checkout/cart-and-order"
import { LOCK_KEYS } from "../locks/lock-keys"

export const GATEWAY_EVENT = "payneteasy.gateway_event"
const MAX_EVENTS = 100

export type GatewayEventEntry = {
  callback_id: string
  type: string
  status: string
  amount: string | null
  currency: string | null
  orderid: string
  /** the gateway transaction's serial number STATUS confirmed the event with */
  serial?: string
  /** what reported it: a callback (then confirmed with STATUS) or the reconciliation's own STATUS call */
  source?: "callback" | "reconcile"
  reason: string | null
  /** a dispute's reason code (STATUS's, else the callback's `reason-code`), when there is one */
  reason_code?: string | null
  /** when the gateway processed the transaction (STATUS), ISO, when it says */
  processed_at?: string | null
  received_at: string
  /** always true for entries written now (the values come from STATUS); false only on entries of older versions */
  confirmed: boolean
}

/** A later event as STATUS confirmed it, plus the callback-log row it was recorded under. */
export type ConfirmedEventFact = {
  logId: string
  source: "callback" | "reconcile"
  sessionId: string | null
  orderid: string
  type: string
  status: string
  amount: string | null
  currency: string | null
  serial: string
  reason: string | null
  /** a dispute's reason code: STATUS's, else the callback's (it moves no money) */
  reasonCode?: string | null
  /** STATUS's processing date of the transaction, ISO */
  processedAt?: string | null
  receivedAt: Date | string
}

type Holder = { orderId?: string; payment?: { id: string; metadata?: Record<string, unknown> | null; data?: Record<string, unknown> | null } }

/** The later events reflected in an order's (or a payment's) metadata. */
export const eventsIn = (metadata: Record<string, unknown> | null | undefined): GatewayEventEntry[] =>
  Array.isArray(metadata?.payneteasy_events) ? (metadata!.payneteasy_events as GatewayEventEntry[]) : []

/** The order (once the cart is completed) and the Payment of a session: where its later events are kept. */
export async function eventHolder(container: MedusaContainer, sessionId: string | null, paymentCollectionId: string | undefined): Promise<Holder> {
  if (!paymentCollectionId || !sessionId) return {}
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [{ orderId }, { data: payments }] = await Promise.all([
    cartAndOrderFor(container, paymentCollectionId),
    query.graph({ entity: "payment", fields: ["id", "metadata", "data"], filters: { payment_session_id: sessionId } }),
  ])
  return { orderId, payment: payments[0] as Holder["payment"] }
}

/** The events already reflected for a session (order metadata, else payment metadata). */
export async function reflectedEvents(container: MedusaContainer, holder: Holder): Promise<GatewayEventEntry[]> {
  if (holder.orderId) {
    const order = await container.resolve(Modules.ORDER).retrieveOrder(holder.orderId, { select: ["id", "metadata"] })
    return eventsIn(order.metadata)
  }
  return eventsIn(holder.payment?.metadata)
}

function appended(metadata: Record<string, unknown> | null | undefined, entry: GatewayEventEntry) {
  const events = eventsIn(metadata)
  // One entry per log row, and per gateway transaction and reporter: a callback replayed under another event key
  // finds its serial taken; the reconciliation's own finding on the same transaction is a second, separate report.
  const sameTransaction = (e: GatewayEventEntry) => !!entry.serial && e.serial === entry.serial && (e.source ?? "callback") === entry.source
  if (events.some((e) => e.callback_id === entry.callback_id || sameTransaction(e))) {
    return undefined
  }
  return { ...(metadata ?? {}), payneteasy_events: [...events, entry].slice(-MAX_EVENTS) }
}

const EVENTS_LOCK_TIMEOUT_S = 30

async function appendEntry(container: MedusaContainer, holder: Holder, entry: GatewayEventEntry): Promise<{ added: boolean; where: string }> {
  if (holder.orderId) {
    const orderModule = container.resolve(Modules.ORDER)
    const order = await orderModule.retrieveOrder(holder.orderId, { select: ["id", "metadata"] })
    const metadata = appended(order.metadata, entry)
    if (metadata) {
      await orderModule.updateOrders(holder.orderId, { metadata })
    }
    return { added: !!metadata, where: `order ${holder.orderId} metadata.payneteasy_events` }
  }
  const payment = holder.payment!
  // Read again under the lock (the holder's copy may be stale).
  const { data } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "payment", fields: ["id", "metadata"], filters: { id: payment.id } })
  const metadata = appended((data[0] as { metadata?: Record<string, unknown> | null } | undefined)?.metadata, entry)
  if (metadata) {
    // UpdatePaymentDTO types only `id`, but the module passes the rest to the Payment row (no provider call).
    await container.resolve(Modules.PAYMENT).updatePayment({ id: payment.id, metadata } as { id: string })
  }
  return { added: !!metadata, where: `payment ${payment.id} metadata.payneteasy_events` }
}

export async function reflectLaterEvent(
  container: MedusaContainer,
  fact: ConfirmedEventFact,
  paymentCollectionId: string | undefined
): Promise<string> {
  const entry: GatewayEventEntry = {
    callback_id: fact.logId,
    type: fact.type,
    status: fact.status,
    amount: fact.amount,
    currency: fact.currency,
    orderid: fact.orderid,
    serial: fact.serial,
    source: fact.source,
    reason: fact.reason,
    ...(fact.reasonCode ? { reason_code: fact.reasonCode } : {}),
    ...(fact.processedAt ? { processed_at: fact.processedAt } : {}),
    received_at: new Date(fact.receivedAt).toISOString(),
    confirmed: true,
  }
  const holder = await eventHolder(container, fact.sessionId, paymentCollectionId)
  let where = "callback log only"
  let added = true
  const key = holder.orderId ?? holder.payment?.id
  if (key) {
    // Read-modify-write of one metadata object: a callback and a reconciliation tick may reflect events of the same
    // order at once, and without the lock one would overwrite the other's entry.
    const written = await container.resolve(Modules.LOCKING).execute(LOCK_KEYS.events(key), () => appendEntry(container, holder, entry), {
      timeout: EVENTS_LOCK_TIMEOUT_S,
    })
    added = written.added
    where = written.where
  }
  if (!added) {
    return `${fact.type} ${fact.status} (serial ${fact.serial}) already recorded (${where})`
  }
  await container.resolve(Modules.EVENT_BUS).emit({
    name: GATEWAY_EVENT,
    data: {
      callback_id: fact.logId,
      type: fact.type,
      status: fact.status,
      amount: fact.amount,
      currency: fact.currency,
      serial: fact.serial,
      reason_code: fact.reasonCode ?? null,
      processed_at: fact.processedAt ?? null,
      order_id: holder.orderId,
      payment_id: holder.payment?.id,
      session_id: fact.sessionId,
      confirmed: true,
    },
  })
  return `${fact.type} ${fact.status} confirmed by STATUS (serial ${fact.serial}) and recorded (${where})`
}

/** Undoes reflectLaterEvent's metadata entry (the workflow's compensation); the event already emitted stays emitted. */
export async function removeReflectedEvent(container: MedusaContainer, fact: ConfirmedEventFact, paymentCollectionId: string | undefined): Promise<void> {
  const holder = await eventHolder(container, fact.sessionId, paymentCollectionId)
  const key = holder.orderId ?? holder.payment?.id
  if (!key) return
  const without = (metadata: Record<string, unknown> | null | undefined) => {
    const events = eventsIn(metadata)
    const kept = events.filter((e) => e.callback_id !== fact.logId)
    return kept.length === events.length ? undefined : { ...(metadata ?? {}), payneteasy_events: kept }
  }
  await container.resolve(Modules.LOCKING).execute(LOCK_KEYS.events(key), async () => {
    if (holder.orderId) {
      const orderModule = container.resolve(Modules.ORDER)
      const order = await orderModule.retrieveOrder(holder.orderId, { select: ["id", "metadata"] })
      const metadata = without(order.metadata)
      if (metadata) await orderModule.updateOrders(holder.orderId, { metadata })
      return
    }
    const { data } = await container
      .resolve(ContainerRegistrationKeys.QUERY)
      .graph({ entity: "payment", fields: ["id", "metadata"], filters: { id: holder.payment!.id } })
    const metadata = without((data[0] as { metadata?: Record<string, unknown> | null } | undefined)?.metadata)
    if (metadata) await container.resolve(Modules.PAYMENT).updatePayment({ id: holder.payment!.id, metadata } as { id: string })
  }, { timeout: EVENTS_LOCK_TIMEOUT_S })
}

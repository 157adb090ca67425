/**
 * One `info` line per money movement of a PaynetEasy payment that Medusa records: the order's payment authorized or
 * captured at checkout (`order.placed`), a capture (`payment.captured`), a refund (`payment.refunded`). Each line
 * says what moved, the exact amount as the gateway was asked (the ledger's decimal string) and the gateway's status,
 * and ends with the payment's ids (core/telemetry/payment-log.ts), so `grep` of the session, payment, order, gateway
 * order or client order id finds it beside the plugin's other lines about that payment.
 *
 * Why from Medusa's events (subscribers/payneteasy-payment-log.ts) rather than inside the provider: Medusa calls the
 * provider before it has a Payment or an order id, and it emits these events once the movement is recorded, with the
 * ids settled; the subscriber runs in the worker, off the request's path. Payments of other providers log nothing.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PROVIDER_PREFIX } from "../connection/registration"
import { paymentLogger } from "../telemetry/payment-log"

export type MovementEvent = "order.placed" | "payment.captured" | "payment.refunded"

type Entry = { id?: string; amount?: string; currency?: string; status?: string; pending?: boolean }
type PaymentRow = {
  id: string
  provider_id: string
  payment_session_id?: string | null
  payment_collection_id?: string | null
  captured_at?: string | Date | null
  data?: Record<string, unknown> | null
  captures?: Array<{ id: string; created_at: string | Date }>
  refunds?: Array<{ id: string; created_at: string | Date }>
}

const FIELDS = [
  "id", "provider_id", "payment_session_id", "payment_collection_id", "captured_at", "data", "captures.id", "captures.created_at",
  "refunds.id", "refunds.created_at",
]

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined)
const latest = <T extends { created_at: string | Date }>(xs: T[] | undefined) =>
  [...(xs ?? [])].sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime())[0]

/** The ledger entry of a Medusa Capture / Refund (the provider keys its entries by their ids: session-data.ts). */
function entryOf(data: Record<string, unknown> | null | undefined, list: "captures" | "refunds", id: string | undefined): Entry | undefined {
  const entries = data?.[list]
  return Array.isArray(entries) && id ? (entries as Entry[]).find((e) => e?.id === id) : undefined
}

const statusText = (status: unknown, pending?: boolean) => `gateway ${text(status) ?? "status unknown"}${pending ? ", pending reconciliation" : ""}`

/** The lines of one event (one per PaynetEasy payment it concerns). Pure: the rows are read by logMovement. */
export function movementLines(event: MovementEvent, payment: PaymentRow): string | undefined {
  if (!payment.provider_id?.startsWith(PROVIDER_PREFIX)) return undefined
  const data = payment.data ?? {}
  const currency = text(data.currency) ?? ""
  if (event === "order.placed") {
    const what = payment.captured_at || data.transactionType === "sale" ? "paid (sale)" : "authorized (preauth)"
    return `PaynetEasy: order placed, payment ${what} ${text(data.amount) ?? "?"} ${currency} (${statusText(data.gatewayStatus)})`
  }
  const list = event === "payment.captured" ? "captures" : "refunds"
  const row = latest(event === "payment.captured" ? payment.captures : payment.refunds)
  const entry = entryOf(data, list, row?.id)
  const verb = event === "payment.captured" ? "captured" : "refunded"
  return `PaynetEasy: ${verb} ${text(entry?.amount) ?? "?"} ${text(entry?.currency) ?? currency} (${statusText(entry?.status, entry?.pending)}${row ? `, ${row.id}` : ""})`
}

/** Logs the movement lines of a Medusa event: `id` is the order's id (order.placed) or the payment's. */
export async function logMovement(container: MedusaContainer, event: MovementEvent, id: string): Promise<void> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  let orderId: string | undefined = event === "order.placed" ? id : undefined
  let payments: PaymentRow[]
  if (event === "order.placed") {
    const { data: links } = await query.graph({ entity: "order_payment_collection", fields: ["payment_collection_id"], filters: { order_id: id } })
    const collections = (links as Array<{ payment_collection_id: string }>).map((l) => l.payment_collection_id)
    if (!collections.length) return
    payments = (await query.graph({ entity: "payment", fields: FIELDS, filters: { payment_collection_id: collections } })).data as PaymentRow[]
  } else {
    payments = (await query.graph({ entity: "payment", fields: FIELDS, filters: { id } })).data as PaymentRow[]
    const collection = payments[0]?.payment_collection_id
    if (collection && payments[0].provider_id?.startsWith(PROVIDER_PREFIX)) {
      const { data: links } = await query.graph({ entity: "order_payment_collection", fields: ["order_id"], filters: { payment_collection_id: collection } })
      orderId = (links as Array<{ order_id: string }>)[0]?.order_id
    }
  }
  for (const p of payments) {
    const line = movementLines(event, p)
    if (!line) continue
    const data = p.data ?? {}
    paymentLogger(logger, {
      paymentSessionId: p.payment_session_id ?? text(data.session_id),
      paymentId: p.id,
      orderId,
      gatewayOrderId: text(data.orderId),
      clientOrderId: text(data.clientOrderId),
    }).info(line)
  }
}

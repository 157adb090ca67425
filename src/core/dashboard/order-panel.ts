/**
 * The data of the order page's PaynetEasy panel (GET /admin/payneteasy/orders/:id) and the "check at the gateway now"
 * action (POST …/check). Everything comes from what Medusa and the plugin already recorded — the order's PaynetEasy
 * payment sessions and payments (session data: gateway order id, client_orderid, captures/returns ledger), the
 * callback log, the reconciliation state and the stored STATUS answers — so opening an order never calls the gateway;
 * only the check does (STATUS for the order and for every transaction we know by serial number), and its answers
 * are stored (payneteasy_status_check) with who asked.
 *
 * Later events (chargebacks and the other disputes, returns or captures made outside Medusa) are the callback-log
 * rows of a non-initial type, confirmed when STATUS established them (later-events.ts).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { scrub, type PaynetEasyClient } from "../../gateway"
import { userEmails } from "./users"
import { PAYNETEASY_MODULE } from "../../modules/payneteasy"
import type PaynetEasyModuleService from "../../modules/payneteasy/service"
import type { CallbackRow, ReconciliationRow } from "../../modules/payneteasy/service"
import { sessionDataSchema, type SessionData } from "../checkout/session-data"
import { PAYNETEASY_PROVIDER_PREFIX } from "../connection/providers"
import { statusClientFor } from "../connection"
import { statusFields } from "../../gateway/requests"
import { errorCodeOf, errorMessageOf, serialNumberOf, transactionTypeOf } from "../../gateway/replies"
import { callbackView, type CallbackView } from "./callback-view"
import { laterEventViews, type LaterEventView } from "./later-events"
import { eventsIn, type GatewayEventEntry } from "../callbacks/reflect-later-event"
export type { LaterEventView } from "./later-events"
import { activityOf, moneySummary, threeDsState, type ActivityEntry, type MedusaMoneyRow, type MoneySummary, type PaymentKind, type SessionMoneyInput, type ThreeDsState } from "./order-money"

const THREE_DS_KEY = /3ds|three|eci|cavv|mpi|liability|authentication/i

type SessionRow = { id: string; provider_id: string; status: string; amount?: unknown; currency_code?: string; data?: Record<string, unknown>; created_at?: string }
type PaymentRow = {
  id: string
  provider_id: string
  payment_session_id?: string
  data?: Record<string, unknown>
  metadata?: Record<string, unknown> | null
  created_at?: string | null
  captured_at?: string | null
  canceled_at?: string | null
  captures?: MedusaMoneyRow[]
  refunds?: MedusaMoneyRow[]
}

export interface StatusCheckView {
  serial_number: string | null
  transaction_type: string | null
  status: string
  amount: string | null
  currency: string | null
  reason: string | null
  checked_at: string
  checked_by: string | null
}

export interface SessionPanel {
  session_id: string
  provider_id: string
  session_status: string
  payment_id: string | null
  flow: string | null
  transaction_type: string | null
  client_orderid: string | null
  gateway_order_id: string | null
  amount: string | null
  currency: string | null
  gateway_status: string | null
  error: { code?: string; message: string } | null
  ledger: Array<{ kind: "capture" | "refund" | "void"; id: string; amount: string; status: string | null; pending: boolean; serial_number: string | null }>
  /** how the money was taken: hosted page, card in the shop, saved card at checkout, an admin's rebill, a renewal */
  kind: PaymentKind
  three_ds: { state: ThreeDsState; summary: string; fields: Record<string, string> }
  /** what happened, in order: the shop's own actions (who, when) and what only the gateway reported */
  activity: ActivityEntry[]
  callbacks: CallbackView[]
  reconciliation: Array<Pick<ReconciliationRow, "target" | "state" | "checks" | "last_status" | "note"> & { last_checked_at: string | null; next_check_at: string | null }>
  transactions: StatusCheckView[]
  last_checked_at: string | null
  later_events: LaterEventView[]
}

export interface OrderPanel {
  order_id: string
  display_id: number | null
  /** per currency: authorized, captured, refunded, charged back and left to capture (decimal strings) */
  summary: MoneySummary[]
  /** false: no payment of this order went through a PaynetEasy provider (the widget hides itself). */
  is_payneteasy: boolean
  sessions: SessionPanel[]
  warnings: string[]
}

const svc = (c: MedusaContainer) => c.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)
const iso = (d: unknown) => (d ? new Date(d as string).toISOString() : null)

async function orderSessions(container: MedusaContainer, orderId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "display_id",
      "metadata",
      "payment_collections.id",
      "payment_collections.payment_sessions.*",
      "payment_collections.payments.*",
      "payment_collections.payments.captures.*",
      "payment_collections.payments.refunds.*",
    ],
    filters: { id: orderId },
  })
  const order = data[0] as
    | { id: string; display_id?: number; metadata?: Record<string, unknown> | null; payment_collections?: Array<{ payment_sessions?: SessionRow[]; payments?: PaymentRow[] }> }
    | undefined
  if (!order) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order with id "${orderId}" was not found`)
  const collections = order.payment_collections ?? []
  const isOurs = (p: string) => p === PAYNETEASY_PROVIDER_PREFIX || p.startsWith(`${PAYNETEASY_PROVIDER_PREFIX}_`)
  const sessions = collections.flatMap((c) => c.payment_sessions ?? []).filter((s) => s && isOurs(s.provider_id))
  const payments = collections.flatMap((c) => c.payments ?? []).filter((p) => p && isOurs(p.provider_id))
  return { order, sessions, payments }
}

function parsed(data: Record<string, unknown> | undefined): SessionData | undefined {
  const r = sessionDataSchema.safeParse(data ?? {})
  return r.success ? r.data : undefined
}

function ledgerOf(d: SessionData | undefined): SessionPanel["ledger"] {
  if (!d) return []
  const entry = (kind: "capture" | "refund" | "void", e: { id: string; amount: string; status?: string; pending?: boolean; serialNumber?: string }) => ({
    kind,
    id: e.id,
    amount: e.amount,
    status: e.status ?? null,
    pending: e.pending === true,
    serial_number: e.serialNumber ?? null,
  })
  return [
    ...(d.captures ?? []).map((e) => entry("capture", e)),
    ...(d.refunds ?? []).map((e) => entry("refund", e)),
    ...(d.voidEntry ? [entry("void", d.voidEntry)] : []),
  ]
}

const THREE_DS_SUMMARY: Record<ThreeDsState, string> = {
  reported: "reported by the gateway (see fields)",
  challenge_in_progress: "challenge in progress (the shopper has a 3-D Secure step to finish)",
  challenge_completed: "challenge completed: the shopper confirmed the payment with the card's bank",
  hosted_page: "run by the gateway's payment page (its result is not reported back)",
  no_challenge: "no challenge was asked",
  not_applicable: "not applicable: charged without the customer present",
}

function threeDs(callbacks: CallbackRow[], d: SessionData | undefined, kind: PaymentKind): SessionPanel["three_ds"] {
  const fields: Record<string, string> = {}
  for (const row of callbacks) {
    for (const [k, v] of Object.entries(row.params ?? {})) {
      if (THREE_DS_KEY.test(k) && typeof v === "string" && v !== "") fields[k] = scrub(v)
    }
  }
  const state = threeDsState(kind, d, Object.keys(fields).length > 0, callbacks.some((c) => c.source === "return"))
  return { state, summary: THREE_DS_SUMMARY[state], fields }
}

export async function buildOrderPanel(container: MedusaContainer, orderId: string): Promise<OrderPanel> {
  const { order, sessions, payments } = await orderSessions(container, orderId)
  const service = svc(container)
  const ids = sessions.map((s) => s.id)
  const [callbacks, watches, checks, charges, rebills] = ids.length
    ? await Promise.all([
        service.listPaynetEasyCallbacks({ session_id: ids }, { order: { received_at: "ASC" }, take: 500 }) as unknown as Promise<CallbackRow[]>,
        service.listPaynetEasyReconciliations({ session_id: ids }, { take: 100 }) as unknown as Promise<ReconciliationRow[]>,
        service.listPaynetEasyStatusChecks({ session_id: ids }, { order: { checked_at: "DESC" }, take: 500 }) as unknown as Promise<any[]>,
        service.listPaynetEasyCardCharges({ session_id: ids }, { take: 100 }) as unknown as Promise<Array<{ session_id: string; off_session: boolean }>>,
        service.listPaynetEasyRebills({ session_id: ids }, { take: 100 }) as unknown as Promise<Array<{ session_id: string | null; requested_by: string | null }>>,
      ])
    : [[], [], [], [], []]
  const medusaRows = new Map<string, MedusaMoneyRow>()
  for (const p of payments) for (const r of [...(p.captures ?? []), ...(p.refunds ?? [])]) if (r?.id) medusaRows.set(r.id, r)
  const emails = await userEmails(container, [
    ...checks.map((c) => c.checked_by),
    ...[...medusaRows.values()].map((r) => r.created_by),
    ...rebills.map((r) => r.requested_by),
  ])
  // the later events STATUS confirmed, as reflected on the order (or its payments before there was an order)
  const reflected = new Map<string, GatewayEventEntry>()
  for (const e of [...payments.flatMap((p) => eventsIn(p.metadata)), ...eventsIn(order.metadata)]) reflected.set(e.callback_id, e)
  const moneyInputs: SessionMoneyInput[] = []
  const panels: SessionPanel[] = sessions.map((s) => {
    const payment = payments.find((p) => p.payment_session_id === s.id)
    const d = parsed(payment?.data) ?? parsed(s.data)
    const mine = callbacks.filter((c) => c.session_id === s.id)
    const rebill = rebills.find((r) => r.session_id === s.id)
    const charge = charges.find((c) => c.session_id === s.id)
    const kind: PaymentKind = rebill ? "rebill" : charge ? (charge.off_session ? "renewal" : "saved_card") : d?.flow === "direct" ? "direct" : "hosted"
    const later = laterEventViews(mine, d, reflected)
    const moneyInput: SessionMoneyInput = {
      session_id: s.id,
      data: d,
      kind,
      authorized: !!payment,
      authorized_at: iso(payment?.created_at),
      started_by: rebill?.requested_by ? emails.get(rebill.requested_by) ?? null : null,
      events: later,
      medusa_rows: medusaRows,
      emails,
    }
    moneyInputs.push(moneyInput)
    const myChecks = checks.filter((c) => c.session_id === s.id)
    const latest = new Map<string, StatusCheckView>()
    for (const c of myChecks) {
      const key = c.serial_number ?? `${c.orderid}:${c.transaction_type ?? ""}`
      if (latest.has(key)) continue
      latest.set(key, {
        serial_number: c.serial_number,
        transaction_type: c.transaction_type,
        status: c.status,
        amount: c.amount,
        currency: c.currency,
        reason: c.error_message ?? c.error_code ?? null,
        checked_at: new Date(c.checked_at).toISOString(),
        checked_by: c.checked_by ? emails.get(c.checked_by) ?? c.checked_by : null,
      })
    }
    return {
      session_id: s.id,
      provider_id: s.provider_id,
      session_status: s.status,
      payment_id: payment?.id ?? null,
      flow: d?.flow ?? null,
      transaction_type: d?.transactionType ?? null,
      client_orderid: d?.clientOrderId ?? null,
      gateway_order_id: d?.orderId ?? null,
      amount: d?.amount ?? null,
      currency: d?.currency ?? null,
      gateway_status: d?.gatewayStatus ?? null,
      error: d?.error ?? null,
      ledger: ledgerOf(d),
      kind,
      three_ds: threeDs(mine, d, kind),
      activity: activityOf(moneyInput),
      callbacks: mine.map(callbackView),
      reconciliation: watches
        .filter((w) => w.session_id === s.id)
        .map((w) => ({
          target: w.target,
          state: w.state,
          checks: w.checks,
          last_status: w.last_status,
          note: w.note,
          last_checked_at: iso(w.last_checked_at),
          next_check_at: w.state === "pending" ? iso(w.next_check_at) : null,
        })),
      transactions: [...latest.values()],
      last_checked_at: myChecks[0] ? new Date(myChecks[0].checked_at).toISOString() : null,
      later_events: later,
    }
  })
  const warnings = panels.flatMap((p) => [
    ...p.later_events.filter((e) => e.warning).map((e) => e.warning!),
    ...p.reconciliation.filter((r) => r.state === "flagged").map((r) => `reconciliation gave up on ${r.target || "the payment"}: ${r.note ?? "ask PaynetEasy"}`),
  ])
  const summary = moneySummary(moneyInputs, panels.map((p) => p.activity))
  return { order_id: order.id, display_id: order.display_id ?? null, summary, is_payneteasy: panels.length > 0, sessions: panels, warnings }
}

export interface CheckResult {
  checked: number
  errors: Array<{ session_id: string; message: string }>
}

/**
 * Asks the gateway STATUS for every PaynetEasy session of the order that has a gateway order (and for each ledger
 * entry with a serial number) and stores the answers. Read-only at the gateway; Medusa's payment is not changed here
 * (callbacks and reconciliation do that).
 */
export async function checkOrderAtGateway(container: MedusaContainer, orderId: string, actorId: string | undefined): Promise<CheckResult> {
  const { sessions, payments } = await orderSessions(container, orderId)
  const result: CheckResult = { checked: 0, errors: [] }
  const service = svc(container)
  for (const s of sessions) {
    const payment = payments.find((p) => p.payment_session_id === s.id)
    const d = parsed(payment?.data) ?? parsed(s.data)
    if (!d?.orderId) continue
    let client: PaynetEasyClient
    try {
      // the one way to the gateway (core/connection): the registration's own options, checked to be this plugin's
      client = statusClientFor(container, s.provider_id)
    } catch (e) {
      // names the provider or the option, never a value (status-client.ts, options.ts)
      result.errors.push({ session_id: s.id, message: scrub((e as Error)?.message ?? String(e)) })
      continue
    }
    const serials = [undefined, ...ledgerOf(d).map((e) => e.serial_number).filter((x): x is string => !!x)]
    try {
      for (const serial of serials) {
        const reply = await client.request("STATUS", statusFields({ clientOrderId: d.clientOrderId, orderId: d.orderId, serialNumber: serial }))
        const errorMessage = errorMessageOf(reply)
        await service.createPaynetEasyStatusChecks({
          session_id: s.id,
          provider_id: s.provider_id,
          orderid: d.orderId,
          client_orderid: d.clientOrderId,
          serial_number: serialNumberOf(reply) ?? serial ?? null,
          transaction_type: transactionTypeOf(reply) ?? null,
          status: reply.status,
          amount: reply.amount ?? null,
          currency: reply.currency ?? null,
          error_code: errorCodeOf(reply) ?? null,
          error_message: errorMessage ? scrub(errorMessage) : null,
          checked_at: new Date(),
          checked_by: actorId ?? null,
        })
        result.checked++
      }
    } catch (e) {
      // the client's errors are GatewayErrors, scrubbed of its control key and private key (gateway/client.ts)
      result.errors.push({ session_id: s.id, message: scrub((e as Error)?.message ?? String(e)) })
    } finally {
      await client.close()
    }
  }
  return result
}

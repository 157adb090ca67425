/**
 * Payout state in one place: the record type, what a gateway answer means for a payout's status, how a change is
 * written (the payout row updated and one history row appended, never edited), and the lock every change holds.
 *
 * Every writer — create, confirm, a callback, the reconciliation tick — changes a payout only inside
 * `withPayoutLock` (Medusa's locking module, key `payneteasy:payout:<id>`), so two of them never interleave.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { scrub } from "../../gateway/scrub"
import { replyDigest, transactionTypeOf } from "../../gateway/replies"
import { parseGatewayStatus, type GatewayStatus } from "../../gateway/statuses"
import { PAYNETEASY_MODULE } from "../../modules/payneteasy"
import type PaynetEasyModuleService from "../../modules/payneteasy/service"
import { LOCK_KEYS } from "../locks/lock-keys"
import { isFinalPayout, PAYOUT_STATUS_PHASE, type PayoutStatus } from "./payout-phase"
import { paymentIdsText } from "../telemetry/payment-log"

export type { PayoutStatus }
export { isFinalPayout }

export type PayoutRow = {
  id: string
  provider_id: string
  method: "single" | "two_step" | "form"
  status: PayoutStatus
  amount: string
  currency_code: string
  destination_type: string | null
  destination_summary: string | null
  recipient: string | null
  purpose: string | null
  client_orderid: string
  gateway_order_id: string | null
  check_serial: string | null
  pay_serial: string | null
  form_url: string | null
  error_code: string | null
  error_message: string | null
  idempotency_key: string
  request_hash: string
  confirm_idempotency_key: string | null
  created_by: string | null
  confirmed_by: string | null
  confirmed_at: Date | null
  finished_at: Date | null
  next_check_at: Date | null
  checks: number
  eligibility: "checking" | "eligible" | "ineligible" | "skipped" | null
  saved_card_id: string | null
  created_at: Date
  updated_at: Date
}

export type HistoryRow = {
  id: string
  payout_id: string
  at: Date
  actor: string
  event: string
  from_status: string | null
  to_status: string
  gateway: Record<string, unknown> | null
  note: string | null
}

export const payoutService = (container: MedusaContainer) => container.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)

export const LOCK_TIMEOUT_S = 60

/** The lock a payout is changed under (withPayoutLock; the reconciliation workflow takes it with acquireLockStep). */
export const payoutLockKey = LOCK_KEYS.payout

export async function withPayoutLock<T>(container: MedusaContainer, payoutId: string, fn: () => Promise<T>): Promise<T> {
  return container.resolve(Modules.LOCKING).execute(payoutLockKey(payoutId), fn, { timeout: LOCK_TIMEOUT_S })
}

export async function getPayout(container: MedusaContainer, id: string): Promise<PayoutRow | undefined> {
  const [row] = (await payoutService(container).listPaynetEasyPayouts({ id }, { take: 1 })) as unknown as PayoutRow[]
  return row
}

/** The parts of a gateway answer worth keeping in the history, scrubbed (no card number, no control). */
export const gatewayAnswer = (reply: Record<string, unknown> | undefined): Record<string, unknown> | null => replyDigest(reply)

export type Change = {
  actor: string
  event: string
  status?: PayoutStatus
  patch?: Partial<PayoutRow>
  gateway?: Record<string, unknown> | null
  note?: string
}

/** Updates the payout and appends one history row. Caller holds the payout lock. */
export async function applyChange(container: MedusaContainer, payout: PayoutRow, change: Change): Promise<PayoutRow> {
  const svc = payoutService(container)
  const to = change.status ?? payout.status
  const patch: Record<string, unknown> = { ...(change.patch ?? {}) }
  if (to !== payout.status) patch.status = to
  if (isFinalPayout(to) && !payout.finished_at) {
    patch.finished_at = new Date()
    patch.next_check_at = null
  }
  const updated = await svc.changePayout(Object.keys(patch).length ? { id: payout.id, ...patch } : null, {
    payout_id: payout.id,
    at: new Date(),
    actor: change.actor,
    event: change.event,
    from_status: payout.status,
    to_status: to,
    gateway: change.gateway ?? null,
    note: change.note ? scrub(change.note).slice(0, 1000) : null,
  })
  if (PAYOUT_STATUS_PHASE[to] === "paid" && PAYOUT_STATUS_PHASE[payout.status] !== "paid") {
    // the payout's money movement: one info line, with its ids (core/telemetry/payment-log.ts)
    container.resolve(ContainerRegistrationKeys.LOGGER).info(`PaynetEasy: payout paid ${payout.amount} ${payout.currency_code.toUpperCase()} (gateway ${to})` +
      paymentIdsText({ payoutId: payout.id, gatewayOrderId: (updated as PayoutRow | undefined)?.gateway_order_id ?? payout.gateway_order_id, clientOrderId: payout.client_orderid }))
  }
  return (updated as PayoutRow | undefined) ?? payout
}

const text = (v: unknown) => (v === undefined || v === null ? "" : String(v).trim().toLowerCase())

/**
 * What each gateway status means for the step a payout is in: every status of gateway/operations.ts named, so a new
 * one does not compile without its row (issue 54). "waiting": not decided yet; the step goes on.
 */
export const PAYOUT_STEP_OUTCOME = {
  approved: "approved",
  declined: "declined",
  error: "error",
  filtered: "filtered",
  processing: "waiting",
  unknown: "waiting",
  chain_declined: "waiting",
  other: "waiting",
} as const satisfies Record<GatewayStatus, PayoutStatus | "waiting">

/**
 * What a gateway answer (async reply or STATUS) means for this payout. `txType` is STATUS's `transaction-type`
 * (payout-check or payout); a two-step payout is in its pay step once a `payout` transaction exists.
 */
export function statusFromGateway(payout: PayoutRow, reply: Record<string, unknown>): PayoutStatus {
  const outcome = PAYOUT_STEP_OUTCOME[parseGatewayStatus(reply.status)]
  const txType = text(transactionTypeOf(reply))
  if (payout.method === "two_step" && (txType === "payout-check" || (!txType && !payout.confirmed_at))) {
    // Confirmed, but the gateway still shows only the approved check: the pay has not arrived (yet); stay as we are.
    if (outcome === "approved") return payout.confirmed_at ? payout.status : "checked"
    return outcome === "waiting" ? "checking" : "check_declined"
  }
  if (outcome !== "waiting") return outcome
  if (payout.method === "form" && (payout.status === "form_issued" || payout.status === "pending")) return "form_issued"
  return "processing"
}

/** The payout as the admin API shows it: amounts are decimal strings, dates ISO strings, no keys. */
export function payoutView(p: PayoutRow) {
  return {
    id: p.id,
    method: p.method,
    status: p.status,
    amount: p.amount,
    currency_code: p.currency_code,
    destination: p.destination_type ? { type: p.destination_type, summary: p.destination_summary } : null,
    recipient: p.recipient,
    purpose: p.purpose,
    client_orderid: p.client_orderid,
    gateway_order_id: p.gateway_order_id,
    check_serial: p.check_serial,
    pay_serial: p.pay_serial,
    form_url: p.form_url,
    error_code: p.error_code,
    error_message: p.error_message,
    eligibility: p.eligibility ?? null,
    provider_id: p.provider_id,
    created_by: p.created_by,
    confirmed_by: p.confirmed_by,
    confirmed_at: p.confirmed_at,
    finished_at: p.finished_at,
    created_at: p.created_at,
    updated_at: p.updated_at,
    can_confirm: p.method === "two_step" && p.status === "checked" && !p.confirm_idempotency_key,
  }
}

export function historyView(h: HistoryRow) {
  return { id: h.id, at: h.at, actor: h.actor, event: h.event, from_status: h.from_status, to_status: h.to_status, gateway: h.gateway, note: h.note }
}

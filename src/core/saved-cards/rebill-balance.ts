/**
 * What an admin rebill may charge on an order, computed once on the server (the rebill workflow, the route's GET) and
 * shown as is by the dashboard's widget, which does no arithmetic of its own.
 *
 * Chargeable = outstanding − authorized − pending rebill, never below zero, in integer minor units:
 * - outstanding is Medusa's own `summary.pending_difference` (order total − booked transactions, i.e. captured minus
 *   refunded as Medusa counts it);
 * - authorized is what the order's payments hold at the gateway and have not captured (not canceled): it is the
 *   customer's money already promised, captured from the order page, never charged a second time;
 * - a pending rebill (started, outcome not known yet) may have charged the card: it counts as charged.
 * The refusal says why nothing may be charged, in the order the admin must act on it.
 */
import { fromMinorUnits } from "../../gateway/money"
import { rowsMinor, signedMinor, type MoneyRow } from "../checkout/amounts"

export type RebillRefusal = { type: "rebill_pending" | "capture_authorized" | "no_balance"; message: string }

export type PendingRebill = { id: string; amount: string; currency_code: string; card_id: string; created_at: string | null }

/** GET /admin/payneteasy/orders/:id/rebill → { balance }. Amounts are major-unit decimal strings of `currency_code`. */
export type RebillBalance = {
  order_id: string
  customer_id: string | null
  currency_code: string
  total: string
  paid: string
  outstanding: string
  authorized: string
  pending_rebill: PendingRebill | null
  chargeable: string
  refusal: RebillRefusal | null
}

export type RebillBalanceInput = {
  order_id: string
  customer_id: string | null
  currency_code: string
  totalMinor: bigint
  paidMinor: bigint
  outstandingMinor: bigint
  authorizedMinor: bigint
  pending: PendingRebill | null
  pendingMinor: bigint
}

const text = (minor: bigint, currency: string) => (minor < 0n ? `-${fromMinorUnits(-minor, currency)}` : fromMinorUnits(minor, currency))

/** An order's payment as the rebill reads it: its amount, its captures, canceled or not. */
export type HoldingPayment = MoneyRow & { canceled_at?: unknown; captures?: MoneyRow[] | null }

/**
 * What the order's live payments hold authorized and have not captured, in minor units: the customer's money already
 * promised. A canceled payment holds nothing; a payment captured in full (or more, never below zero) adds nothing.
 */
export function authorizedHeldMinor(payments: ReadonlyArray<HoldingPayment | null | undefined>, currency: string): bigint {
  let held = 0n
  for (const payment of payments) {
    if (!payment || payment.canceled_at) continue
    const left = signedMinor((payment.raw_amount ?? payment.amount ?? 0) as never, currency) - rowsMinor(payment.captures, currency)
    if (left > 0n) held += left
  }
  return held
}

export function rebillBalance(i: RebillBalanceInput): RebillBalance {
  const currency = i.currency_code
  const due = i.outstandingMinor - i.authorizedMinor - i.pendingMinor
  const chargeable = due > 0n ? due : 0n
  const code = currency.toUpperCase()
  let refusal: RebillRefusal | null = null
  if (i.pending) {
    refusal = {
      type: "rebill_pending",
      message:
        `Rebill ${i.pending.id} of ${i.pending.amount} ${code} to card ${i.pending.card_id} has no recorded outcome yet: it may have ` +
        `charged the card. No other rebill of this order is sent until the gateway's answer books or fails it; check the order at the gateway.`,
    }
  } else if (chargeable === 0n && i.authorizedMinor > 0n) {
    refusal = {
      type: "capture_authorized",
      message: `The order's authorized payment (${text(i.authorizedMinor, currency)} ${code}) covers what it owes: capture the authorized payment instead of charging the card again.`,
    }
  } else if (chargeable === 0n) {
    refusal = { type: "no_balance", message: "This order has no outstanding amount to charge: it is paid." }
  }
  return {
    order_id: i.order_id,
    customer_id: i.customer_id,
    currency_code: currency,
    total: text(i.totalMinor, currency),
    paid: text(i.paidMinor, currency),
    outstanding: text(i.outstandingMinor, currency),
    authorized: text(i.authorizedMinor, currency),
    pending_rebill: i.pending,
    chargeable: text(chargeable, currency),
    refusal,
  }
}

/**
 * Typed readers of the gateway's replies (issue 33: wire names are written once). Code outside src/gateway reads a
 * reply's fields through these (`orderId`, `serialNumber`, `transactionType`…) instead of spelling the reply's keys;
 * the spellings live here and in operations.ts. Every reader takes any reply record (a STATUS, an async response, an
 * error reply kept in a history) and returns undefined for a field the reply does not carry. No Medusa imports.
 */
import { scrub } from "./scrub"

type Reply = Record<string, unknown> | undefined | null

const text = (r: Reply, key: string): string | undefined => {
  const v = r?.[key]
  return v === undefined || v === null ? undefined : typeof v === "string" ? v : String(v)
}

/** The gateway's order id (`paynet-order-id`). */
export const orderIdOf = (r: Reply) => text(r, "paynet-order-id")
/** Our client order id as the gateway echoes it (`merchant-order-id`). */
export const clientOrderIdOf = (r: Reply) => text(r, "merchant-order-id")
/** The transaction's serial number (`serial-number`). */
export const serialNumberOf = (r: Reply) => text(r, "serial-number")
/** The latest (or the asked-for) transaction's type: sale, preauth, capture, reversal, void, payout… */
export const transactionTypeOf = (r: Reply) => text(r, "transaction-type")
export const errorCodeOf = (r: Reply) => text(r, "error-code")
export const errorMessageOf = (r: Reply) => text(r, "error-message")
/** What the order was opened for (`initial-amount`), when the reply names it; `amount` is what is held now. */
export const initialAmountOf = (r: Reply) => text(r, "initial-amount")
/** A 3-D Secure next step: the address the payer must be sent to (`redirect-to`). */
export const redirectToOf = (r: Reply) => text(r, "redirect-to")
/** A hosted page's address (`redirect-url`, the *-form operations). */
export const redirectUrlOf = (r: Reply) => text(r, "redirect-url")
/** A recurring payment's id (`recurring-payment-id`): create-recurring-payment's reply, or a STATUS that names it. */
export const recurringPaymentIdOf = (r: Reply) => text(r, "recurring-payment-id")
/** create-card-ref's card reference (`card-ref-id`). */
export const cardRefIdOf = (r: Reply) => text(r, "card-ref-id")

/** get-card-info's reply as a card's displayable details (never the number). */
export function cardInfoOf(r: Reply): {
  brand?: string
  bin?: string
  lastFour?: string
  expMonth?: string
  expYear?: string
  holder?: string
} {
  return {
    brand: text(r, "card-type"),
    bin: text(r, "bin"),
    lastFour: text(r, "last-four-digits"),
    expMonth: text(r, "expire-month"),
    expYear: text(r, "expire-year"),
    holder: text(r, "card-printed-name"),
  }
}

/** The keys of a reply worth keeping in a history (wire spellings, as the admin shows them). */
const DIGEST_KEYS = [
  "type", "status", "transaction-type", "serial-number", "paynet-order-id", "merchant-order-id", "error-code",
  "error-message", "error_code", "error_message", "amount", "currency", "orderid", "client_orderid", "last-four-digits",
  "bin", "order-stage", "source", "http-status",
]

/** The parts of a gateway answer (a reply or a callback's params) worth keeping, scrubbed, each at most 500 chars. */
export function replyDigest(reply: Reply): Record<string, unknown> | null {
  if (!reply) return null
  const out: Record<string, unknown> = {}
  for (const k of DIGEST_KEYS) if (reply[k] !== undefined && reply[k] !== null) out[k] = String(reply[k]).slice(0, 500)
  return scrub(out) as Record<string, unknown>
}

/** A failure kept in the same shape as a reply's digest: where it came from, the gateway's code and message. */
export function failureDigest(f: { source: string; code?: string; message?: string; httpStatus?: number }): Record<string, unknown> | null {
  return replyDigest({ source: f.source, "error-code": f.code, "error-message": f.message, "http-status": f.httpStatus })
}

/** A reply with its transaction type set (a payout reply names none; the request's kind says which it was). */
export const withTransactionType = <R extends Record<string, unknown>>(r: R, type: string): R & Record<string, unknown> => ({
  ...r,
  "transaction-type": type,
})

/** One balance as get-balance reports it; amounts are the gateway's decimal text, unchanged. */
export type BalanceFigures = {
  name?: string
  /** current balance including holds and reserve (by endpoint: the only figure, `balance-amount`) */
  amount?: string
  /** what can be paid out now: current − short-term holds − rolling reserve */
  liveAmount?: string
  shortTermHolds?: string
  rollingReserve?: string
  /** OUT operations not final yet */
  bufferHold?: string
  currency?: string
  merchantLogin?: string
}

function balanceFrom(r: Record<string, unknown>): BalanceFigures {
  return {
    name: text(r, "name"),
    amount: text(r, "amount") ?? text(r, "balance-amount"),
    liveAmount: text(r, "online-balance-live-amount"),
    shortTermHolds: text(r, "total-short-term-hold-amount"),
    rollingReserve: text(r, "total-rolling-reserve-amount"),
    bufferHold: text(r, "amount-buffer-hold"),
    currency: text(r, "currency"),
    merchantLogin: text(r, "merchantLogin"),
  }
}

/** Every balance of a get-balance reply (a JSON list, or one flat record). A number prints as JSON wrote it. */
export function balancesOf(r: Reply): BalanceFigures[] {
  if (!r) return []
  const list = r["balance-list"]
  if (Array.isArray(list)) {
    return list.filter((e): e is Record<string, unknown> => !!e && typeof e === "object").map(balanceFrom)
  }
  const one = balanceFrom(r)
  return one.amount !== undefined || one.liveAmount !== undefined ? [one] : []
}

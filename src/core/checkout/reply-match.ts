/**
 * Whether a STATUS reply is about THIS payment (issue 32 part 6): state changes only on a reply whose client order id,
 * gateway order id, amount and currency are the session's. A gateway (or a proxy in front of it) that mixes
 * transactions up, or a lookup by a wrong `orderid`, would otherwise authorize one shopper's cart with another
 * shopper's payment. A mismatch is never an authorization: the caller keeps the session pending and shows it to a
 * person (the admin's attention list).
 *
 * Fields the reply does not carry are not compared (the real gateway's status-response always carries
 * merchant-order-id, paynet-order-id, amount and currency; notes "Status-response fields observed"). The amount
 * agrees when either the reply's `initial-amount` (what was asked) or its `amount` (what is held now, lower after a
 * return) is the session's amount, in exact minor units.
 */
import { toMinor } from "./amounts"
import { clientOrderIdOf, initialAmountOf, orderIdOf } from "../../gateway/replies"

export interface PaymentIdentity {
  clientOrderId: string
  /** the gateway order id, once the gateway has given one */
  orderId?: string
  /** major units, decimal string */
  amount: string
  currency: string
}

type Reply = Record<string, unknown>

/** How a reconciliation watch flagged for such a reply starts its note (the admin's attention list reads it). */
export const REPLY_MISMATCH_NOTE = "a STATUS reply was about another payment"

const text = (v: unknown) => (v === undefined || v === null || v === "" ? undefined : String(v))

function sameAmount(reply: Reply, p: PaymentIdentity): boolean {
  const wanted = toMinor(p.amount, p.currency)
  const shown = [text(initialAmountOf(reply)), text(reply.amount)].filter((v): v is string => v !== undefined)
  if (!shown.length) return true
  return shown.some((v) => {
    try {
      return toMinor(v, p.currency) === wanted
    } catch {
      return false
    }
  })
}

/**
 * Why the reply names another transaction than `p` (client order id, gateway order id), or undefined. For follow-ups
 * (capture / return / void), whose amounts legitimately differ from the payment's.
 */
export function idMismatch(reply: Reply, p: Pick<PaymentIdentity, "clientOrderId" | "orderId">): string | undefined {
  const cid = text(clientOrderIdOf(reply))
  if (cid !== undefined && cid !== p.clientOrderId) return `the reply is about another client order id (${cid.slice(0, 64)}, not ${p.clientOrderId})`
  const oid = text(orderIdOf(reply))
  if (oid !== undefined && p.orderId && oid !== p.orderId) return `the reply is about another gateway order (${oid.slice(0, 32)}, not ${p.orderId})`
  return undefined
}

/** Why the reply is not about this payment, or undefined when it is. The reason names ids and amounts only. */
export function replyMismatch(reply: Reply, p: PaymentIdentity): string | undefined {
  const ids = idMismatch(reply, p)
  if (ids) return ids
  const currency = text(reply.currency)
  if (currency !== undefined && currency.toUpperCase() !== p.currency.toUpperCase()) {
    return `the reply is in another currency (${currency.slice(0, 8)}, not ${p.currency})`
  }
  if (!sameAmount(reply, p)) {
    return `the reply names another amount (${text(reply["initial-amount"]) ?? text(reply.amount)}, not ${p.amount} ${p.currency})`
  }
  return undefined
}

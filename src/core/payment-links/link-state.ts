/**
 * What a payment link may pay, decided from Medusa's own records only (issue 50). The collection id is the capability:
 * whoever holds the link may pay a guest order's collection — that is what a payment link is — but never a collection
 * that is paid or authorized, canceled, a cart's (checkout pays those), or of an order that is canceled or still a
 * draft. The amount is the collection's, in integer minor units, never anything a page sent, and never more than the
 * order still owes (its summary's pending difference): Medusa leaves a collection's amount as it was made while the
 * order moves on, e.g. an admin capturing the rest of the old Payment after an edit's new collection was made for the
 * whole difference (found from outside, issue 49: the link charged 6.42 twice).
 */
import { paidCollectionRefusal, type CollectionFacts } from "../checkout/paid-collection"
import { signedMinor, toMinor } from "../checkout/amounts"
import { fromMinorUnits } from "../../gateway/money"

export interface LinkCollection extends CollectionFacts {
  id: string
  /** Medusa's amount (any BigNumber shape: the exact decimal is read) */
  amount: unknown
  currency_code: string
}

export interface LinkOrder {
  id: string
  status?: string | null
  is_draft_order?: boolean | null
  customer_id?: string | null
  /** Medusa's order summary: what the order still owes is its pending difference (absent: the collection decides) */
  summary?: { pending_difference?: unknown; raw_pending_difference?: unknown } | null
}

export interface LinkFacts {
  collection?: LinkCollection
  /** The order linked to the collection (order_payment_collection), if any. */
  order?: LinkOrder
  /** The cart linked to the collection (cart_payment_collection), if any: then it is a checkout's, not a link's. */
  cartId?: string
}

export type LinkState =
  | { state: "payable"; amount: string; amountMinor: bigint; currency: string }
  | { state: "paid" }
  | { state: "expired"; why: "canceled" | "order_canceled" | "not_found" }
  | { state: "not_an_order" }
  | { state: "nothing_owed" }

/** Pure: the state of a payment link. */
export function linkState(f: LinkFacts): LinkState {
  const c = f.collection
  if (!c) return { state: "expired", why: "not_found" }
  if (c.status === "canceled") return { state: "expired", why: "canceled" }
  if (paidCollectionRefusal(c)) return { state: "paid" }
  if (f.cartId || !f.order || f.order.is_draft_order || f.order.status === "draft") return { state: "not_an_order" }
  if (f.order.status === "canceled") return { state: "expired", why: "order_canceled" }
  const currency = c.currency_code.toUpperCase()
  let amountMinor: bigint
  try {
    amountMinor = toMinor(c.amount as string, currency)
  } catch {
    return { state: "nothing_owed" }
  }
  const pending = f.order.summary?.raw_pending_difference ?? f.order.summary?.pending_difference
  if (pending != null) {
    let owedMinor: bigint
    try {
      owedMinor = signedMinor(pending as string, currency)
    } catch {
      return { state: "nothing_owed" }
    }
    if (owedMinor < amountMinor) amountMinor = owedMinor
  }
  if (amountMinor <= 0n) return { state: "nothing_owed" }
  return { state: "payable", amount: fromMinorUnits(amountMinor, currency), amountMinor, currency }
}

/** The words a refusal is answered with (the store route's message; the page has its own, translated). */
export function refusalMessage(s: Exclude<LinkState, { state: "payable" }>): string {
  switch (s.state) {
    case "paid":
      return "This payment link is already paid."
    case "expired":
      return s.why === "not_found"
        ? "This payment link does not exist or has expired."
        : s.why === "order_canceled"
          ? "This payment link has expired: the order was canceled."
          : "This payment link has expired: the payment was canceled."
    case "not_an_order":
      return "This payment link does not belong to an order."
    case "nothing_owed":
      return "Nothing is owed on this payment link."
  }
}

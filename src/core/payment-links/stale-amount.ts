/**
 * A payment of an order's own collection made at an amount the collection no longer asks (issue 50, F3). Medusa's
 * order edit grows an unpaid collection in place (createOrUpdateOrderPaymentCollectionWorkflow updates its amount) and
 * leaves the sessions already made on it, so a hosted page opened before a second edit can still be paid at the old
 * amount. Authorized, it would leave the collection partially authorized: the link says paid, and Medusa offers no
 * way to pay the rest (a new session on it would need the paid one deleted). Such a payment is given back instead
 * (the session deleted: the provider's deletePayment releases or returns it, once), and the link stays payable for
 * what is owed now. A cart's collection never gets here: a cart change deletes its sessions itself.
 *
 * The same holds for a payment made after its order or collection was canceled (a page opened before the admin's
 * cancel, paid after it): the order owes nothing, and an authorized collection on a canceled order is money neither a
 * cancel nor a capture can reach any more (found from outside, stop 62).
 */
import type { BigNumberInput } from "@medusajs/framework/types"
import { toMinor } from "../checkout/amounts"

/** Whether a session registered for `registered` (its data's amount) pays a collection that now asks `asked`. */
export function paysAStaleAmount(registered: unknown, asked: BigNumberInput | undefined, currency: string): boolean {
  if (typeof registered !== "string" || asked === undefined || asked === null) return false
  try {
    return toMinor(registered, currency) !== toMinor(asked, currency)
  } catch {
    return false // an amount that cannot be read decides nothing: the payment module's own checks stand
  }
}

export type GiveBackReason = "stale-amount" | "order-canceled"

/**
 * Why a payment of an order's own collection is given back instead of booked, or undefined when it is booked:
 * the order or the collection is canceled; or a page / card payment (`amountMatters`) registered for an amount the
 * collection no longer asks.
 */
export function giveBackReason(p: {
  registered: unknown
  asked: BigNumberInput | undefined
  currency: string
  amountMatters: boolean
  orderStatus?: string
  collectionStatus?: string
}): GiveBackReason | undefined {
  if (p.orderStatus === "canceled" || p.collectionStatus === "canceled") return "order-canceled"
  if (p.amountMatters && paysAStaleAmount(p.registered, p.asked, p.currency)) return "stale-amount"
  return undefined
}

/**
 * When a payment collection's sessions must stay as they are (issue 49, defect 1): Medusa's
 * createPaymentSessionsWorkflow replaces a collection's sessions without asking whether the collection is paid, and
 * the old session's deletePayment was all that stood between a second browser tab and the preauth behind an order.
 * One rule, used by the route guard (api/paid-collection-guard.ts) and by the provider's deletePayment
 * (after-authorization.ts releaseDeleted): a collection that is authorized, partly or wholly captured, or completed —
 * or that holds a Payment, whatever its status says yet — keeps its money and its sessions.
 */
import { PaymentCollectionStatus } from "@medusajs/framework/utils"

/** What each of Medusa's collection statuses means for a new session: every status named, so a new one fails to compile. */
const REFUSED_BY_STATUS = {
  [PaymentCollectionStatus.NOT_PAID]: undefined,
  [PaymentCollectionStatus.AWAITING]: undefined,
  [PaymentCollectionStatus.FAILED]: undefined,
  [PaymentCollectionStatus.AUTHORIZED]: "This order is already paid/authorized: its payment cannot be replaced",
  [PaymentCollectionStatus.PARTIALLY_AUTHORIZED]: "This order is already paid/authorized in part: its payment cannot be replaced",
  [PaymentCollectionStatus.PARTIALLY_CAPTURED]: "This order is already paid/authorized (partly captured): its payment cannot be replaced",
  [PaymentCollectionStatus.COMPLETED]: "This order is already paid/authorized (captured): its payment cannot be replaced",
  [PaymentCollectionStatus.CANCELED]: "This payment was canceled: it cannot be paid again",
} as const satisfies Record<PaymentCollectionStatus, string | undefined>

export interface CollectionFacts {
  status?: string | null
  /** The collection's Payments (Medusa makes one when it authorizes a session). */
  payments?: ReadonlyArray<{ id: string; canceled_at?: Date | string | null }> | null
}

/** Pure: the words a new session on this collection is refused with, or undefined when it may be replaced. */
export function paidCollectionRefusal(collection: CollectionFacts): string | undefined {
  const byStatus = REFUSED_BY_STATUS[collection.status as PaymentCollectionStatus]
  if (byStatus) return byStatus
  const live = (collection.payments ?? []).find((p) => !p.canceled_at)
  return live ? `This order is already paid/authorized (payment ${live.id}): its payment cannot be replaced` : undefined
}

/** The session facts deletePayment decides on: its own Payment and its collection's state. */
export interface SessionFacts {
  payment?: { id: string; canceled_at?: Date | string | null } | null
  payment_collection?: CollectionFacts | null
}

/** Pure: why deleting this session must move no money (it backs a Payment, or its collection holds money), or undefined. */
export function sessionHoldsOrderMoney(session: SessionFacts): string | undefined {
  if (session.payment) return `it backs payment ${session.payment.id}`
  const collection = session.payment_collection
  // A canceled collection holds no money of its own (its Payments are canceled with it; a live one still counts): a
  // session of it paid after the cancel is given back (core/payment-links/stale-amount.ts giveBackReason).
  const facts = collection?.status === PaymentCollectionStatus.CANCELED ? { ...collection, status: undefined } : collection
  const refusal = facts ? paidCollectionRefusal(facts) : undefined
  return refusal ? `its payment collection is ${session.payment_collection?.status ?? "paid"}` : undefined
}

/**
 * Every key this plugin takes a Medusa lock under, named once (issue 54): two places that must exclude each other
 * (a recurring charge's callback and its reconciliation, say) agree on the key by importing it, not by typing it
 * again. Medusa's own cart lock is the cart id (what cart completion takes) and is not listed here.
 */

export const LOCK_KEYS = {
  /** One reconciliation tick at a time across instances (tick-lock.ts). */
  reconcileTick: "payneteasy:reconcile:tick",
  payoutsTick: "payneteasy:payouts:tick",
  recurringTick: "payneteasy:recurring:tick",
  /** A callback is processed under its session's lock (or, with none, its gateway order's). */
  session: (sessionOrGatewayOrderId: string) => `payneteasy:session:${sessionOrGatewayOrderId}`,
  /** A recurring payment's set-up (by order id), charges and stop (by its row id). */
  recurring: (orderOrRecurringId: string) => `payneteasy:recurring:${orderOrRecurringId}`,
  /** One saved-card charge per payment collection. */
  cardCharge: (collectionId: string) => `payneteasy:card-charge:${collectionId}`,
  cardVerification: (cardId: string) => `payneteasy:card-verification:${cardId}`,
  /** One admin rebill at a time per order. */
  rebill: (orderId: string) => `payneteasy:rebill:${orderId}`,
  /** Booking a Payment's captures on its order as order transactions (checkout/book-captures.ts). */
  orderBooking: (orderId: string) => `payneteasy:order-booking:${orderId}`,
  /** Starting or resuming the payment of an order's payment collection by its link (core/payment-links). */
  paymentLink: (collectionId: string) => `payneteasy:payment-link:${collectionId}`,
  /** One admin capture, refund or cancel of an order at a time, the whole request long (api/admin-money-serial.ts). */
  adminMoneyAction: (orderId: string) => `payneteasy:admin-money:${orderId}`,
  /** One capture / refund / cancel of a Payment at a time, and reconciliation's writes to its ledger (checkout/payment-ledger.ts). */
  paymentLedger: (paymentId: string) => `payneteasy:payment-ledger:${paymentId}`,
  payout: (payoutId: string) => `payneteasy:payout:${payoutId}`,
  payoutIdempotencyKey: (key: string) => `payneteasy:payout-key:${key}`,
  /** Appending to an order's (or payment's) list of later gateway events. */
  events: (holderKey: string) => `payneteasy:events:${holderKey}`,
} as const

/** Payout workflows and helpers (create, confirm, callbacks, reconciliation); see each file's header. */
export { createPayoutWorkflow, runCreatePayout, type CreatePayoutInput, type CreatePayoutResult } from "./create-payout"
export { confirmPayoutWorkflow, runConfirmPayout, type ConfirmPayoutInput, type ConfirmPayoutResult } from "./confirm-payout"
export { reconcilePayouts, PAYOUT_TICK_LOCK, type PayoutReconcileReport } from "./reconcile-payouts"
export { processPayoutCallback, isPayoutClientOrderId, PAYOUT_CLIENT_ORDER_PREFIX } from "./payout-callback"
export { payoutView, historyView, type PayoutRow, type PayoutStatus } from "./payout-state"
export { depositDestination, destinationSummary, discardDestination } from "./destination"

/**
 * The plugin's public workflow functions (package export "./workflows"), for stores that want to run them from their
 * own code — e.g. reconcile on demand from an admin route, or settle a session a person has checked by hand.
 * The functions are plain async functions of the Medusa container; each is idempotent and safe to run next to the
 * scheduled job. The Medusa workflows they run are exported too (payneteasy-process-callback,
 * payneteasy-reconcile-session, payneteasy-reconcile-ledger-entry).
 */
export { reconcilePaynetEasy, reconcileSessionWorkflow, TICK_LOCK, type ReconcileReport } from "./payneteasy/reconcile"
export { reconcileLedgerEntryWorkflow } from "./payneteasy/reconcile-ledger"
export { settleSession, type SettleOutcome, type SettleResult } from "../core/checkout/settle-session"
export { processCallback, processPaynetEasyCallbackWorkflow, CALLBACK_RECEIVED } from "./payneteasy/process-callback"
export { reflectLaterEvent, GATEWAY_EVENT, type GatewayEventEntry } from "../core/callbacks/reflect-later-event"
export { cartAndOrderFor, type CartLinks } from "../core/checkout/cart-and-order"
export { nextCheckAt, FAST_PHASE_MS, GIVE_UP_AFTER_MS } from "../core/reconciliation/backoff"
export { pendingEntries, type PendingEntry } from "../core/checkout/ledger"

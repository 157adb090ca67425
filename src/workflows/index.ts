/**
 * The plugin's public workflow functions (package export "./workflows"), for stores that want to run them from their
 * own code — e.g. reconcile on demand from an admin route, or settle a session a person has checked by hand.
 * All are plain async functions of the Medusa container; each is idempotent and safe to run next to the scheduled job.
 */
export { reconcilePaynetEasy, TICK_LOCK, type ReconcileReport } from "./payneteasy/reconcile"
export { settleSession, type SettleOutcome, type SettleResult } from "./payneteasy/settle-session"
export { processCallback, CALLBACK_RECEIVED } from "./payneteasy/process-callback"
export { reflectLaterEvent, GATEWAY_EVENT, type GatewayEventEntry } from "./payneteasy/reflect-later-event"
export { cartAndOrderFor, type CartLinks } from "../lookups/cart-and-order"
export { nextCheckAt, FAST_PHASE_MS, GIVE_UP_AFTER_MS } from "../reconciliation/backoff"
export { pendingEntries, type PendingEntry } from "../payment-data/ledger"

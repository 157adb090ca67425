/**
 * The one way Medusa-side code reaches the gateway: the provider (its own client, from its options), the workflows and
 * the reconciliation (a read-only STATUS client for a registration that is checked to be this plugin's provider).
 * Framework-light: it sits on src/gateway and below providers / workflows, and imports neither.
 */
export { clientFromOptions, clientForOptions, gatewayConfigOf, parseOptions, optionsSchema, resolvePrivateKey } from "./options"
export type { PaynetEasyOptions, PaynetEasyOptionsInput } from "./options"
export { UnresolvedLostReply, pollStatus, statusFields, isNotFound, isFinal, isDecisive, hasNextAction, DEFAULT_POLL_DELAYS_MS } from "./gateway-ops"
export type { StatusQuery, StatusReply, Fields } from "./gateway-ops"
export { reachOf, maybeSent, certainlyNothingMade, neverLeft } from "./reach"
export { sendMoneyRequest, settleByStatus, pastProcessingWindow, DEFAULT_PROCESSING_WINDOW_MS, DEFAULT_ASK_AGAIN_MS } from "./money-request"
export type { MoneySent, MoneyRequest } from "./money-request"
export { gatewayTelemetry, settleSpan } from "./gateway-telemetry"
export type { Reach } from "./reach"
export { statusClientFor, providerOptionsFor } from "./status-client"
export { isThisPluginsProvider, PAYNETEASY_PROVIDER_BRAND, PROVIDER_PREFIX } from "./registration"

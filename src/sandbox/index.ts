/**
 * Public face of the local PaynetEasy gateway sandbox: `startSandbox`, the default merchant, the steering types.
 * The sandbox is framework-free (node:http) and verifies requests with its own code; it shares only the operation
 * table (src/gateway/operations.ts) with the client. See README.md for what it fakes and what it does not.
 */
export { startSandbox, type Sandbox } from "./server"
export { DEFAULT_SANDBOX_MERCHANT, type SandboxMerchant, type SandboxOptions } from "./options"
export type { SandboxControl, TransactionView, TxnView } from "./control"
export type { FaultRule, StoredFault } from "./faults"
export type { CallbackAttempt } from "./state"
export type { Behaviour } from "./cards"
export { ACS_PASSWORD } from "./pages"
export { payHostedPage, completeChallenge, type ShopperCard, type FinalRedirect } from "./shopper"

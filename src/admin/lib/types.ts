/**
 * The shapes the plugin's /admin/payneteasy/* routes answer, imported (as types only: nothing of the server is
 * bundled) from the server code that builds them (src/api/admin/payneteasy), so the dashboard and the routes cannot
 * drift apart.
 */
import type { checkProvider } from "../../core/connection/providers"

export type { CallbackView as CallbackEntry } from "../../core/dashboard/callback-view"
export type {
  StatusCheckView as GatewayTransaction,
  LaterEventView as LaterEvent,
  SessionPanel,
  OrderPanel,
} from "../../core/dashboard/order-panel"
export type { ActivityEntry, MoneySummary } from "../../core/dashboard/order-money"
export type { AttentionItem } from "../../core/dashboard/attention"
export type { PayoutSettings } from "../../api/admin/payneteasy/payout-settings/route"

export type DoctorProvider = Awaited<ReturnType<typeof checkProvider>>

/** What JSON makes of a server value: dates become ISO strings (the rest is as the server built it). */
export type Json<T> = T extends Date ? string : T extends Array<infer U> ? Array<Json<U>> : T extends object ? { [K in keyof T]: Json<T[K]> } : T

export interface Page<T> {
  count: number
  limit: number
  offset: number
  items: T[]
}

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

export interface Page<T> {
  count: number
  limit: number
  offset: number
  items: T[]
}

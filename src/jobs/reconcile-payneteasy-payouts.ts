/**
 * Scheduled reconciliation of PaynetEasy payouts that are not final (core/payouts/reconcile-payouts.ts).
 * Every 3 s, like the payment reconciliation: each tick asks only about payouts whose own next check (kept in the
 * database) has come.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { reconcilePayouts } from "../workflows/payneteasy/payouts/reconcile-payouts"

export default async function reconcilePaynetEasyPayoutsJob(container: MedusaContainer) {
  await reconcilePayouts(container)
}

export const config = {
  name: "payneteasy-reconcile-payouts",
  schedule: { interval: 3_000, concurrency: "forbid" as const },
}

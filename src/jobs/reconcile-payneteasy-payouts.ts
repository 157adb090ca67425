/**
 * Scheduled reconciliation of PaynetEasy payouts that are not final (core/payouts/reconcile-payouts.ts).
 * Every 3 s, like the payment reconciliation: each tick asks only about payouts whose own next check (kept in the
 * database) has come.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { reconcilePayouts } from "../workflows/payneteasy/payouts/reconcile-payouts"
import { recordReconciliation } from "../core/telemetry/metrics"

export default async function reconcilePaynetEasyPayoutsJob(container: MedusaContainer) {
  const report = await reconcilePayouts(container)
  // a payout check "settles" when it moves the payout's state (reconcile-payouts.ts `changed`)
  recordReconciliation("payout", { due: report.checked, settled: report.changed, flagged: 0, failed: report.errors })
}

export const config = {
  name: "payneteasy-reconcile-payouts",
  schedule: { interval: 3_000, concurrency: "forbid" as const },
}

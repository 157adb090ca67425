/**
 * Scheduled reconciliation of recurring charges whose callback never came (workflows/payneteasy/recurring/
 * reconcile-charges.ts). Every minute: a charge is due on a calendar schedule, so there is no hurry; each tick asks
 * only about recurring payments whose charge is overdue and whose own next check (kept in the database) has come.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { reconcileRecurringCharges } from "../workflows/payneteasy/recurring/reconcile-charges"
import { recordReconciliation } from "../core/telemetry/metrics"

export default async function reconcilePaynetEasyRecurringJob(container: MedusaContainer) {
  const report = await reconcileRecurringCharges(container)
  recordReconciliation("recurring", { due: report.checked, settled: report.found, flagged: report.flagged, failed: report.errors })
}

export const config = {
  name: "payneteasy-reconcile-recurring",
  schedule: { interval: 60_000, concurrency: "forbid" as const },
}

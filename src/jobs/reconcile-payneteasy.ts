/**
 * Scheduled reconciliation of PaynetEasy payments that are not final (workflows/payneteasy/reconcile.ts).
 * Runs every 3 s: the gateway asks for a STATUS every 3–5 s during the first five minutes, and a cron line cannot
 * say "seconds". Medusa's scheduler accepts `{ interval: <ms> }` (workflow-engine SchedulerOptions). Each tick only
 * checks the sessions whose own next-check time (kept in the database) has come, so most ticks do nothing.
 * `concurrency: "forbid"` stops a slow tick overlapping the next one on this instance; the locking module and the
 * database claim keep instances apart.
 * Each tick's report goes to the reconciliation metrics, and the instance that runs the ticks reports the attention
 * queue's size (core/telemetry/metrics.ts); Medusa traces the job itself as a workflow when its workflows are instrumented.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { reconcilePaynetEasy } from "../workflows/payneteasy/reconcile"
import { observeAttentionQueue, recordReconciliation } from "../core/telemetry/metrics"
import { openAttentionCounts } from "../core/dashboard/attention-size"

export default async function reconcilePaynetEasyJob(container: MedusaContainer) {
  observeAttentionQueue(() => openAttentionCounts(container))
  const report = await reconcilePaynetEasy(container)
  recordReconciliation("payment", { due: report.checked, settled: report.settled, flagged: report.flagged, failed: report.errors })
}

export const config = {
  name: "payneteasy-reconcile",
  schedule: { interval: 3_000, concurrency: "forbid" as const },
}

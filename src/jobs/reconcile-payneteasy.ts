/**
 * Scheduled reconciliation of PaynetEasy payments that are not final (workflows/payneteasy/reconcile.ts).
 * Runs every 3 s: the gateway asks for a STATUS every 3–5 s during the first five minutes, and a cron line cannot
 * say "seconds". Medusa's scheduler accepts `{ interval: <ms> }` (workflow-engine SchedulerOptions). Each tick only
 * checks the sessions whose own next-check time (kept in the database) has come, so most ticks do nothing.
 * `concurrency: "forbid"` stops a slow tick overlapping the next one on this instance; the locking module and the
 * database claim keep instances apart.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { reconcilePaynetEasy } from "../workflows/payneteasy/reconcile"

export default async function reconcilePaynetEasyJob(container: MedusaContainer) {
  await reconcilePaynetEasy(container)
}

export const config = {
  name: "payneteasy-reconcile",
  schedule: { interval: 3_000, concurrency: "forbid" as const },
}

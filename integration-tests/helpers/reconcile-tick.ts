/**
 * One reconciliation tick that ran, for specs that need the tick's work done. The app's own scheduled tick may hold
 * the cluster-wide tick lock at that moment, and a tick that finds it held is skipped and does nothing (by design: one
 * tick at a time), so this tries again until one runs. A file of its own so that the specs that only wait
 * (inspect.ts, imported by the browser tier too) do not load the plugin's workflows.
 * (A skipped tick left a callback unprocessed under load: callback.spec.ts, "the event bus refusing the processing
 * event", issue 38.)
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { reconcilePaynetEasy, type ReconcileReport } from "../../src/workflows/payneteasy/reconcile"
import { waitFor } from "./inspect"

export async function reconcileTick(container: MedusaContainer, options?: Parameters<typeof reconcilePaynetEasy>[1]): Promise<ReconcileReport> {
  return waitFor("a reconciliation tick that is not skipped", async () => {
    const report = await reconcilePaynetEasy(container, options)
    return report.skipped ? false : report
  })
}

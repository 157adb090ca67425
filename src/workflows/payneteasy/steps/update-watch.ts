/**
 * The workflow step that writes one reconciliation watch row's check result (src/core/reconciliation/watch.ts `watchUpdate`). Compensation
 * puts the row's previous values back, so a later failing step leaves the watch due again rather than closed.
 */
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { ReconciliationRow } from "../../../modules/payneteasy/service"
import { watchService, type WatchUpdate } from "../../../core/reconciliation/watch"

type Snapshot = Pick<ReconciliationRow, "id" | "state" | "next_check_at" | "last_status" | "last_checked_at" | "checks" | "note">

export const updateWatchStep = createStep(
  "payneteasy-update-watch",
  async (update: WatchUpdate, { container }) => {
    const svc = watchService(container)
    const before = (await svc.retrievePaynetEasyReconciliation(update.id))
    const snapshot: Snapshot = {
      id: before.id, state: before.state, next_check_at: before.next_check_at, last_status: before.last_status,
      last_checked_at: before.last_checked_at, checks: before.checks, note: before.note,
    }
    // Step inputs may arrive serialised (dates as strings): make them dates again.
    await svc.updatePaynetEasyReconciliations({
      ...update,
      last_checked_at: new Date(update.last_checked_at),
      ...(update.next_check_at ? { next_check_at: new Date(update.next_check_at) } : {}),
    })
    return new StepResponse(update, snapshot)
  },
  async (snapshot, { container }) => {
    if (snapshot) {
      await watchService(container).updatePaynetEasyReconciliations({
        ...snapshot,
        next_check_at: new Date(snapshot.next_check_at),
        last_checked_at: snapshot.last_checked_at ? new Date(snapshot.last_checked_at) : null,
      })
    }
  }
)

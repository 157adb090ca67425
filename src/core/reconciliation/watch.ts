/**
 * Starting and stopping the reconciliation watch of a payment session (rows of `payneteasy_reconciliation`).
 * Used by callback processing (a callback that is not final yet starts the watch, a final one ends it) and by the
 * reconciliation tick's discovery.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { PAYNETEASY_MODULE } from "../../modules/payneteasy"
import type PaynetEasyModuleService from "../../modules/payneteasy/service"
import { nextCheckAt } from "./backoff"

export const watchService = (container: MedusaContainer) => container.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)

/** The session's own watch (its initial transaction); ledger entries of its Payment have their own `target`. */
export const SESSION_TARGET = ""

/**
 * Starts watching a session, or one ledger entry of its Payment (no-op when already watched). `startedAt` anchors
 * the backoff.
 */
export async function ensureWatched(
  container: MedusaContainer,
  sessionId: string,
  providerId: string,
  startedAt: Date = new Date(),
  what: { target?: string; paymentId?: string } = {}
): Promise<void> {
  const svc = watchService(container)
  const target = what.target ?? SESSION_TARGET
  const [existing] = await svc.listPaynetEasyReconciliations({ session_id: sessionId, target }, { take: 1 })
  if (existing) return
  try {
    await svc.createPaynetEasyReconciliations({
      session_id: sessionId,
      provider_id: providerId,
      target,
      payment_id: what.paymentId ?? null,
      state: "pending",
      started_at: startedAt,
      next_check_at: nextCheckAt(startedAt, new Date()) ?? new Date(),
      checks: 0,
    })
  } catch (e) {
    // Lost a race on the unique (session_id, target) index: somebody else started watching it. Anything else is real.
    const [again] = await svc.listPaynetEasyReconciliations({ session_id: sessionId, target }, { take: 1 })
    if (!again) throw e
  }
}

/** Stops watching a session because its outcome is final (callback processing calls this too). */
export async function markSettled(container: MedusaContainer, sessionId: string, lastStatus: string): Promise<void> {
  await watchService(container).endSessionWatch(sessionId, lastStatus)
}


/** What one check of a watch row concluded: the watch ends (final), needs a person (flagged) or goes on (pending). */
export type WatchVerdict = {
  state: "final" | "flagged" | "pending"
  /** the status to remember; undefined keeps the row's last one */
  lastStatus?: string | null
  note?: string | null
}

export type WatchUpdate = {
  id: string
  state?: "final" | "flagged"
  next_check_at?: Date
  last_status?: string | null
  last_checked_at: Date
  checks: number
  note?: string | null
}

/**
 * The one "close the watch, or schedule its next check" helper for session and ledger watches. `pending` with no
 * next check (the hour is over) is the caller's to decide before calling (it is a flag, or a quiet end).
 */
export function watchUpdate(
  row: { id: string; checks: number },
  checkedAt: Date,
  verdict: WatchVerdict,
  nextCheck?: Date | null
): WatchUpdate {
  const base: WatchUpdate = { id: row.id, last_checked_at: checkedAt, checks: row.checks + 1 }
  if (verdict.lastStatus !== undefined) base.last_status = verdict.lastStatus
  if (verdict.note !== undefined) base.note = verdict.note === null ? null : verdict.note.slice(0, 1000)
  if (verdict.state === "pending") {
    if (!nextCheck) throw new Error("watchUpdate: a pending watch needs its next check time")
    return { ...base, next_check_at: nextCheck }
  }
  return { ...base, state: verdict.state }
}

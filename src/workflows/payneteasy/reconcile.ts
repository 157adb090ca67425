/**
 * Reconciliation: asks the gateway about PaynetEasy payment sessions — and captures / returns of PaynetEasy payments
 * (reconcile-ledger.ts) — that are still not final, on the gateway's recommended backoff (src/core/reconciliation/backoff.ts), until they
 * are final or an hour has passed (then flagged for a person).
 *
 * It is what brings a payment to its final state when no callback ever comes (callbacks blocked by a firewall, a
 * non-80/443 port, a gateway outage). Each tick:
 * 1. takes the cluster-wide tick lock from Medusa's locking module (`payneteasy:reconcile:tick`); another instance
 *    holding it means this tick is skipped — Redis locking makes that hold across machines;
 * 2. discovers what is worth watching: PaynetEasy sessions in pending / requires_more / pending_authorization,
 *    younger than an hour, that have a gateway order (`data.orderId`) — or, in the direct flow or after a saved-card
 *    payment (`gatewayStatus: "unknown"`), a client_orderid whose card or rebill request may have reached the gateway
 *    although its reply (and the STATUS after it) was lost: the
 *    provider then asks STATUS by client_orderid alone, and "not found" means nothing was paid (the watch simply
 *    ends after the hour, without a flag); and payment ledger entries still `processing` (reconcile-ledger.ts);
 * 3. claims due rows in the database (UPDATE … FOR UPDATE SKIP LOCKED), so even without the tick lock two
 *    instances never check the same session at the same time;
 * 4. settles them with bounded concurrency, each in a Medusa workflow (`payneteasy-reconcile-session`: `settleSession`
 *    — STATUS via the provider, Medusa state via the payment module and processPaymentWorkflow — then the watch
 *    update, undone if a later step fails; ledger rows: `payneteasy-reconcile-ledger-entry`), and writes the next
 *    check time or the final state. "Paid but the
 *    cart could not be completed" is NOT final: the watch stays pending (next tick tries the cart again) and is
 *    flagged after the hour — with callbacks off nothing else would ever finish that payment;
 * 5. re-runs callback-log rows left `received` or `failed` for more than a minute (the instance died between
 *    recording and processing, or processing failed): processing is idempotent, and the gateway will not resend a
 *    callback it already got a 200 for. A row is retried at most until it is a day old.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { scrub } from "../../gateway/scrub"
import { paymentIdsText } from "../../core/telemetry/payment-log"
import type { ReconciliationRow } from "../../modules/payneteasy/service"
import { GIVE_UP_AFTER_MS } from "../../core/reconciliation/backoff"
import { processCallback } from "./process-callback"
import { discoverLedger, reconcileLedgerEntryWorkflow } from "./reconcile-ledger"
import { repairOrderTransactions } from "../../core/reconciliation/transaction-repair"
import { updateWatchStep } from "./steps/update-watch"
import { ensureWatched, SESSION_TARGET, watchService as service } from "../../core/reconciliation/watch"
import { settleSession } from "../../core/checkout/settle-session"
import { underTickLock } from "../../core/locks/tick-lock"
import { PROVIDER_PREFIX } from "../../core/connection"
import { isDiscoverable, sessionCheck, type CheckVerdict } from "../../core/reconciliation/session-check"
import { LOCK_KEYS } from "../../core/locks/lock-keys"

export const TICK_LOCK = LOCK_KEYS.reconcileTick
export const RECONCILE_SESSION_WORKFLOW = "payneteasy-reconcile-session"
export const DEFAULT_CONCURRENCY = 4
/**
 * Due rows one tick takes. Each check is CPU-bound in Medusa (STATUS + payment module + workflow), so a tick's time
 * grows with the rows it takes whatever the concurrency: a full tick costs about CLAIM_LIMIT ÷ 10 times a tick with 10
 * due rows (bench "reconciliation", goal ≤ 2×: 25 measured 2.35×, and 20, exactly twice the work, 1.60–2.10× from run
 * to run). 15 keeps the bound with room to spare and still checks 300 sessions a minute at one tick per 3 s.
 */
export const CLAIM_LIMIT = 15
const LEASE_MS = 60_000
const WATCHED_STATUSES = ["pending", "requires_more", "pending_authorization"]

export type ReconcileReport = {
  skipped: boolean
  discovered: number
  checked: number
  settled: number
  flagged: number
  errors: number
  callbacksRetried: number
}

const STALE_CALLBACK_MS = 60_000
const RETRY_CALLBACKS_FOR_MS = 24 * 60 * 60_000
const CALLBACK_RETRY_LIMIT = 10

/** Callback-log rows whose processing never finished (see step 5 in the header). */
async function retryStaleCallbacks(container: MedusaContainer, now: Date): Promise<{ retried: number; errors: number }> {
  const rows = await service(container).listPaynetEasyCallbacks(
    {
      source: "callback",
      outcome: ["received", "failed"],
      updated_at: { $lte: new Date(now.getTime() - STALE_CALLBACK_MS) },
      received_at: { $gte: new Date(now.getTime() - RETRY_CALLBACKS_FOR_MS) },
    } as Record<string, unknown>,
    { take: CALLBACK_RETRY_LIMIT, order: { received_at: "ASC" } }
  )
  let errors = 0
  for (const row of rows) {
    try {
      await processCallback(container, row.id)
    } catch {
      errors++ // written on the row as `failed` by processCallback; tried again next time
    }
  }
  return { retried: rows.length, errors }
}


/**
 * Discovery reads only sessions updated since the last look (bench: "reconciliation"), not every pending session of
 * the last hour on every tick: with thousands of watched sessions that was a full load per tick. The watermark is
 * per process (container); a fresh process starts at the hour's window. A page that comes back full moves the
 * watermark to its last row; a short page moves it to now − DISCOVERY_OVERLAP_MS, so a session written by a
 * transaction that committed a little late is still seen; a full page whose rows all share the watermark's time is
 * stepped over with `skip`. A watermark ahead of the tick's clock (a tick run with a clock in the future) is pulled
 * back to now − overlap. Each tick thus reads at most DISCOVERY_PAGE sessions.
 */
const DISCOVERY_PAGE = 500
const DISCOVERY_OVERLAP_MS = 60_000
const discoveredUpTo = new WeakMap<object, { at: number; skip: number }>()

async function discover(container: MedusaContainer, now: Date): Promise<number> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const paymentModule = container.resolve(Modules.PAYMENT)
  const providerIds = (await paymentModule.listPaymentProviders({}))
    .map((p) => p.id)
    .filter((id) => id.startsWith(PROVIDER_PREFIX))
  if (!providerIds.length) return 0
  const windowStart = now.getTime() - GIVE_UP_AFTER_MS
  const state = discoveredUpTo.get(container) ?? { at: windowStart, skip: 0 }
  const latest = now.getTime() - DISCOVERY_OVERLAP_MS
  const since = Math.max(Math.min(state.at, latest), windowStart)
  const skip = since === state.at ? state.skip : 0
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "provider_id", "status", "data", "created_at", "updated_at"],
    filters: {
      provider_id: providerIds,
      status: WATCHED_STATUSES,
      created_at: { $gte: new Date(windowStart) },
      updated_at: { $gte: new Date(since) },
    } as Record<string, unknown>,
    pagination: { skip, take: DISCOVERY_PAGE, order: { updated_at: "ASC", id: "ASC" } } as Record<string, unknown>,
  })
  const page = data as Array<{ id: string; provider_id: string; data?: Record<string, unknown>; created_at: string | Date; updated_at: string | Date }>
  if (page.length < DISCOVERY_PAGE) {
    discoveredUpTo.set(container, { at: latest, skip: 0 })
  } else {
    const lastAt = new Date(page[page.length - 1].updated_at).getTime()
    discoveredUpTo.set(container, lastAt <= since ? { at: since, skip: skip + DISCOVERY_PAGE } : { at: lastAt, skip: 0 })
  }
  const candidates = page.filter((s) => isDiscoverable(s.data))
  let added = 0
  if (candidates.length) {
    const watched = new Set(
      (
        await service(container).listPaynetEasyReconciliations(
          { session_id: candidates.map((c) => c.id), target: SESSION_TARGET },
          { select: ["session_id"] }
        )
      ).map((r) => r.session_id)
    )
    for (const c of candidates) {
      if (watched.has(c.id)) continue
      await ensureWatched(container, c.id, c.provider_id, new Date(c.created_at))
      added++
    }
  }
  const ledger = await discoverLedger(container, now, providerIds)
  await repairOrderTransactions(container, now, providerIds)
  return added + ledger
}

/** Settles the session through the payment module (no compensation: a failed authorization is undone by the module). */
const settleWatchedSessionStep = createStep("payneteasy-settle-watched-session", async (input: { sessionId: string }, { container }) => {
  return new StepResponse(await settleSession(container, input.sessionId))
})

/** Reconciliation of one session watch: settle it, then close the watch or schedule the next check. */
export const reconcileSessionWorkflow = createWorkflow(
  RECONCILE_SESSION_WORKFLOW,
  (input: { row: ReconciliationRow; checkedAt: string }) => {
    const result = settleWatchedSessionStep({ sessionId: input.row.session_id })
    const check = transform({ input, result }, ({ input, result }) => sessionCheck(input.row, result, new Date(input.checkedAt)))
    updateWatchStep(transform({ check }, ({ check }) => check.update))
    return new WorkflowResponse(check)
  }
)

async function checkOne(container: MedusaContainer, row: ReconciliationRow, now: () => Date): Promise<CheckVerdict> {
  const workflow = row.target !== SESSION_TARGET ? reconcileLedgerEntryWorkflow : reconcileSessionWorkflow
  const { result } = await workflow(container).run({ input: { row, checkedAt: now().toISOString() } })
  if (result.warning) container.resolve(ContainerRegistrationKeys.LOGGER).warn(result.warning)
  return result.verdict
}

/** One reconciliation tick. Tests call it directly; the scheduled job calls it every few seconds. */
export async function reconcilePaynetEasy(
  container: MedusaContainer,
  options: { now?: () => Date; concurrency?: number } = {}
): Promise<ReconcileReport> {
  const now = options.now ?? (() => new Date())
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY)
  const report: ReconcileReport = { skipped: false, discovered: 0, checked: 0, settled: 0, flagged: 0, errors: 0, callbacksRetried: 0 }
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const done = await underTickLock(container, TICK_LOCK, async () => {
    report.discovered = await discover(container, now())
    const due = await service(container).claimDue(now(), CLAIM_LIMIT, LEASE_MS)
    let index = 0
    const worker = async () => {
      while (index < due.length) {
        const row = due[index++]
        report.checked++
        try {
          const r = await checkOne(container, row, now)
          if (r === "settled") report.settled++
          if (r === "flagged") report.flagged++
        } catch (e) {
          report.errors++
          logger.warn(`PaynetEasy reconciliation of session ${row.session_id}${row.target ? ` (${row.target})` : ""} failed: ${scrub((e as Error)?.message ?? String(e))}${paymentIdsText({ paymentSessionId: row.session_id })}`)
        }
      }
    }
    await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, worker))
    const retried = await retryStaleCallbacks(container, now())
    report.callbacksRetried = retried.retried
    report.errors += retried.errors
    return report
  })
  return done ?? { ...report, skipped: true }
}

/**
 * What happens to a recorded callback (run by the `payneteasy.callback.received` subscriber, after the route has
 * already answered 200): the Medusa workflow `payneteasy-process-callback`, so it gets the workflow engine's
 * visibility, the locking module's lock and compensation.
 *
 * Steps: lock the session (`payneteasy:session:<id>`, named by processCallback from the row it read first; subscriber,
 * redelivery and the reconciliation tick may meet here) → plan under the lock (the row is read again, so the second
 * comer sees the first one's outcome and does nothing) → one of:
 * - the initial transaction (type sale / preauth): `settleSession` asks the gateway STATUS through the provider and
 *   makes Medusa reflect it (order created, or session failed with the gateway's reason). The callback's own status
 *   is only a trigger: a replayed "approved" for a declined transaction changes nothing. No compensation: a failed
 *   authorization is undone by the payment module itself; a started watch is harmless.
 * - anything later on the order (return, reversal, chargeback, capture/void made elsewhere): its type and amount are
 *   not covered by the control, so the plan confirms it with STATUS first (confirm-later-event.ts). Confirmed:
 *   reflected with the gateway's values, never acted on with money (reflect-later-event.ts); compensation removes
 *   the entry again. Unconfirmable: logged as such (row `ignored`, a warning) and nothing else.
 * - a payout's callback (client_orderid `pnepo_…`): the payout follows STATUS (payouts/payout-callback.ts); a saved
 *   card's zero-amount verification (`pnecard_…`): the card is saved or dropped by STATUS
 *   (saved-cards/verification-callback.ts); a recurring payment's charge (`pnerp_…`): STATUS decides under the
 *   recurring payment's lock (recurring/charge-callback.ts). The kinds are listed in core/callbacks/order-kinds.ts.
 * - a genuine callback for an order Medusa does not know (its session was deleted after a cart change, while the
 *   shopper still paid on an open payment page): when it carries our tag (an order this plugin registered:
 *   core/checkout/callback-owner.ts), an approved payment is given back, void or full return, STATUS first and once
 *   (core/callbacks/orphaned-payment.ts), and the gateway's notice of that give-back is `ignored`. Without the tag
 *   (not ours, or registered before the tag existed) `approved` means the shopper may have been charged with no order
 *   to show for it, so the row is `flagged` and a warning names orderid / client_orderid. Anything else is kept as
 *   `ignored`.
 * → write the row's outcome (compensation restores the previous one, as the plan read it) → release the lock.
 * The rows an event names are read once, together, before the locks (processCallbacks); under the lock the row, its
 * session and the session's Payment / cart / order are one statement (core/callbacks/processing-reads.ts), handed to
 * settleSession: every statement here runs for each of a burst of callbacks (bench "callback → Payment").
 * A row already `processed`, `ignored` or `flagged` is never processed again, so a redelivered event is a no-op. A
 * failure is written as `failed` and rethrown so an event bus with retries retries.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { randomUUID } from "node:crypto"
import { scrub } from "../../gateway/scrub"
import { PAYNETEASY_MODULE } from "../../modules/payneteasy"
import type PaynetEasyModuleService from "../../modules/payneteasy/service"
import type { CallbackRow } from "../../modules/payneteasy/service"
import { confirmCallbackEvent } from "../../core/callbacks/confirm-later-event"
import { removeReflectedEvent, reflectLaterEvent, type ConfirmedEventFact } from "../../core/callbacks/reflect-later-event"
import { ensureWatched, markSettled } from "../../core/reconciliation/watch"
import { settleSession } from "../../core/checkout/settle-session"
import type { SessionInfo } from "../../core/callbacks/verify"
import { readCallbackRows, readForPlan, type PaymentLinks } from "../../core/callbacks/processing-reads"
import { runRenewalOrder } from "./recurring/renewal-order"
import { processPayoutCallback } from "../../core/payouts/payout-callback"
import { isDone, laterEventPlan, planCallback, type Plan } from "../../core/callbacks/callback-plan"
import { settleCardVerificationCallback } from "../../core/saved-cards/verification-callback"
import { processRecurringCharge } from "../../core/recurring/charge-callback"
import { giveBackOrphanedPayment, isOwnOrder } from "../../core/callbacks/orphaned-payment"
import { observeCallbackProcessing } from "../../core/callbacks/processing-telemetry"
import { LOCK_KEYS } from "../../core/locks/lock-keys"

export { CALLBACK_RECEIVED } from "../../core/callbacks/callback-queue"
export const PROCESS_CALLBACK_WORKFLOW = "payneteasy-process-callback"

/** Transaction types that carry the session's own outcome; everything else is a later event on the order. */
const SESSION_LOCK_TIMEOUT_S = 60
const SESSION_LOCK_TTL_S = 120

type Outcome = CallbackRow["outcome"]
type Result = { outcome: Outcome; detail: string }

const service = (container: MedusaContainer) => container.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)
const readRow = async (container: MedusaContainer, id: string) =>
  (await service(container).retrievePaynetEasyCallback(id))

/** The lock a callback is processed under: its session's (or, with none, its gateway order's). A row never changes it. */
const callbackLockKey = (row: Pick<CallbackRow, "session_id" | "orderid">): string =>
  LOCK_KEYS.session(row.session_id ?? row.orderid)

/** Reads the row under the lock and decides what to do; asks STATUS for a later event (read-only, nothing to undo). */
const planCallbackStep = createStep("payneteasy-plan-callback", async (input: { callbackId: string }, { container }) => {
  const { row, session, links } = await readForPlan(container, input.callbackId)
  return new StepResponse({ plan: await planFor(container, row, session, links), row })
})

/** `session`, `links`: the row's PaynetEasy session and where it leads, read with the row (readForPlan). The decisions
 *  are core/callbacks/callback-plan.ts; here the STATUS that confirms a later event is asked, and warnings logged. */
async function planFor(container: MedusaContainer, row: CallbackRow, session: SessionInfo | undefined, links?: PaymentLinks): Promise<Plan> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const first = planCallback(row, session, links, { ownOrder: !session && isOwnOrder(container, row) })
  if (first.warning) logger.warn(first.warning)
  if (first.plan.kind !== "confirm" || !session) return first.plan as Plan
  const later = laterEventPlan(row, session, await confirmCallbackEvent(container, row, session.payment_collection_id))
  if (later.warning) logger.warn(later.warning)
  return later.plan
}

/** A payout's callback: the payout's own path decides by STATUS, under the payout's lock (payouts/payout-callback.ts). */
const settlePayoutCallbackStep = createStep("payneteasy-settle-payout-callback", async (input: { callbackId: string }, { container }) => {
  const row = await readRow(container, input.callbackId)
  return new StepResponse<Result>(await processPayoutCallback(container, row))
})

/** A saved card's zero-amount verification: settled by STATUS under the card's lock (saved-cards/verification-callback.ts). */
const settleCardCallbackStep = createStep("payneteasy-settle-card-verification-callback", async (input: { callbackId: string }, { container }) => {
  const row = await readRow(container, input.callbackId)
  return new StepResponse<Result>(await settleCardVerificationCallback(container, row))
})

/** A recurring payment's charge: STATUS decides, under the recurring payment's lock (recurring/charge-callback.ts). */
const settleRecurringChargeStep = createStep("payneteasy-settle-recurring-charge", async (input: { callbackId: string }, { container }) => {
  const row = await readRow(container, input.callbackId)
  return new StepResponse<Result>(await processRecurringCharge(container, row, runRenewalOrder))
})

/**
 * An approved payment of ours for a session Medusa deleted: given back (void, else a full return), STATUS first, under
 * the session's lock. No compensation: money given back is not taken again.
 */
const giveBackOrphanStep = createStep("payneteasy-give-back-orphaned-payment", async (input: { callbackId: string }, { container }) => {
  const row = await readRow(container, input.callbackId)
  return new StepResponse<Result>(await giveBackOrphanedPayment(container, row))
})

/**
 * A payment of an order's collection given back instead of booked (its order canceled, or paid at an amount the
 * collection no longer asks: settle-session.ts): the release ran inside Medusa's session delete, whose outcome Medusa
 * throws away. So the row goes on as any approved payment of a deleted session does (core/callbacks/orphaned-payment.ts):
 * STATUS decides now, a give-back still processing or not shown yet leaves the row failed (the tick retries it; the
 * attention list shows it), and one not shown within the processing window is flagged for a person. The row is marked
 * as if its give-back had been sent (the session's release may have sent it, its reply lost), so nothing is sent again
 * on the gateway order: STATUS confirms it, or a person does.
 */
async function confirmGiveBack(container: MedusaContainer, callbackId: string, why: string): Promise<Result> {
  const row = await readRow(container, callbackId)
  const before = (row.params as Record<string, unknown> | null) ?? {}
  const params = before.give_back_sent ? before : { ...before, give_back_sent: { at: new Date().toISOString(), afterSerial: null } }
  if (params !== before) await service(container).updatePaynetEasyCallbacks({ id: row.id, params })
  try {
    const r = await giveBackOrphanedPayment(container, { ...row, params })
    return { ...r, detail: `${why}; ${r.detail}` }
  } catch (e) {
    return { outcome: "failed", detail: `${why}; ${(e as Error).message}` }
  }
}

/** A STATUS-confirmed later event onto the order (or payment) metadata and the event bus; undone by removing the entry. */
const reflectLaterEventStep = createStep(
  "payneteasy-reflect-later-event",
  async (input: { fact: ConfirmedEventFact; paymentCollectionId: string }, { container }) => {
    const detail = await reflectLaterEvent(container, input.fact, input.paymentCollectionId)
    return new StepResponse<Result, { fact: ConfirmedEventFact; paymentCollectionId: string }>({ outcome: "processed", detail }, input)
  },
  async (input, { container }) => {
    if (input) await removeReflectedEvent(container, input.fact, input.paymentCollectionId)
  }
)

/** The initial transaction: STATUS through the provider, Medusa state through the payment module and core flows. */
const settleCallbackSessionStep = createStep(
  "payneteasy-settle-callback-session",
  async (input: { callbackId: string; callbackStatus: string; session: SessionInfo; links?: PaymentLinks }, { container }) => {
    const { id: sessionId, provider_id: providerId } = input.session
    const result = await settleSession(container, sessionId, input.session, input.links)
    if (result.givenBack) return new StepResponse<Result>(await confirmGiveBack(container, input.callbackId, result.detail))
    const paidNoOrder = result.outcome === "authorized" && !!result.cartId && !result.orderId
    if (result.outcome === "pending" || paidNoOrder) {
      // Paid but no order is not final either: the reconciliation tick keeps trying the cart (and flags it after
      // the hour) besides re-running this row.
      await ensureWatched(container, sessionId, providerId)
    } else {
      await markSettled(container, sessionId, result.sessionStatus ?? result.outcome)
    }
    if (paidNoOrder) {
      // Paid but no order: keep the row visibly failed so a redelivery or the reconciliation tick tries again.
      return new StepResponse<Result>({ outcome: "failed", detail: `${result.outcome}: ${result.detail}` })
    }
    const note =
      result.outcome === "pending" && input.callbackStatus !== "processing"
        ? ` (callback said ${input.callbackStatus}; STATUS not final yet, reconciliation continues)`
        : ""
    return new StepResponse<Result>({ outcome: "processed", detail: `${result.outcome}: ${result.detail}${note}` })
  }
)

type Previous = Pick<CallbackRow, "id" | "outcome" | "outcome_detail" | "processed_at">

/** Writes the row's outcome; compensation puts back the previous one (`before`: the row as the plan read it, under the lock). */
const recordCallbackOutcomeStep = createStep(
  "payneteasy-record-callback-outcome",
  async (input: { callbackId: string; result?: Result; before: CallbackRow }, { container }) => {
    const before = input.before
    if (!input.result) return new StepResponse(before)
    const after = await writeOutcome(container, input.callbackId, input.result)
    const previous: Previous = { id: before.id, outcome: before.outcome, outcome_detail: before.outcome_detail, processed_at: before.processed_at }
    return new StepResponse(after, previous)
  },
  async (previous, { container }) => {
    // processed_at is text again if the step's output came back from a stored checkpoint (another instance compensating)
    if (previous) {
      const at = previous.processed_at
      await service(container).updatePaynetEasyCallbacks({ ...previous, processed_at: at ? new Date(at) : null })
    }
  }
)

async function writeOutcome(container: MedusaContainer, id: string, r: Result): Promise<CallbackRow> {
  const row = await service(container).setCallbackOutcome(id, r.outcome, r.detail.slice(0, 1000))
  if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `PaynetEasy callback ${id} not found`)
  return row
}

export const processPaynetEasyCallbackWorkflow = createWorkflow(
  PROCESS_CALLBACK_WORKFLOW,
  (input: { callbackId: string; lockKey: string; lockOwner: string }) => {
    acquireLockStep({ key: input.lockKey, ownerId: input.lockOwner, timeout: SESSION_LOCK_TIMEOUT_S, ttl: SESSION_LOCK_TTL_S })
    const planned = planCallbackStep({ callbackId: input.callbackId })
    const plan = transform({ planned }, ({ planned }) => planned.plan)
    const later = when("payneteasy-callback-is-later-event", { plan }, ({ plan }) => plan.kind === "later").then(() =>
      reflectLaterEventStep(transform({ plan }, ({ plan }) => plan as Extract<Plan, { kind: "later" }>))
    )
    const initial = when("payneteasy-callback-is-initial", { plan }, ({ plan }) => plan.kind === "initial").then(() =>
      settleCallbackSessionStep(transform({ plan, input }, ({ plan, input }) => ({ ...(plan as Extract<Plan, { kind: "initial" }>), callbackId: input.callbackId })))
    )
    const payout = when("payneteasy-callback-is-payout", { plan }, ({ plan }) => plan.kind === "payout").then(() =>
      settlePayoutCallbackStep({ callbackId: input.callbackId })
    )
    const card = when("payneteasy-callback-is-card-verification", { plan }, ({ plan }) => plan.kind === "card_verification").then(() =>
      settleCardCallbackStep({ callbackId: input.callbackId })
    )
    const recurring = when("payneteasy-callback-is-recurring-charge", { plan }, ({ plan }) => plan.kind === "recurring").then(() =>
      settleRecurringChargeStep({ callbackId: input.callbackId })
    )
    const orphan = when("payneteasy-callback-is-orphaned-payment", { plan }, ({ plan }) => plan.kind === "orphan").then(() =>
      giveBackOrphanStep({ callbackId: input.callbackId })
    )
    const result = transform({ plan, later, initial, payout, card, recurring, orphan }, ({ plan, later, initial, payout, card, recurring, orphan }): Result | undefined => {
      switch (plan.kind) {
        case "final": return { outcome: plan.outcome, detail: plan.detail }
        case "later": return later
        case "initial": return initial
        case "payout": return payout
        case "card_verification": return card
        case "recurring": return recurring
        case "orphan": return orphan
        default: return undefined
      }
    })
    const before = transform({ planned }, ({ planned }) => planned.row)
    const row = recordCallbackOutcomeStep({ callbackId: input.callbackId, result, before })
    releaseLockStep({ key: input.lockKey, ownerId: input.lockOwner })
    return new WorkflowResponse(row)
  }
)

/** `first`: the row as the caller has just read it (processCallbacks reads an event's rows together), saving a read. */
export async function processCallback(container: MedusaContainer, callbackId: string, first?: CallbackRow): Promise<CallbackRow> {
  first ??= await readRow(container, callbackId)
  if (isDone(first)) {
    return first
  }
  const row = first
  // a span linked to the request that registered the payment, and the outcome counted (processing-telemetry.ts)
  return observeCallbackProcessing(row, async () => {
    try {
      const { result } = await processPaynetEasyCallbackWorkflow(container).run({
        input: { callbackId, lockKey: callbackLockKey(row), lockOwner: `payneteasy-callback-${randomUUID()}` },
      })
      return result as CallbackRow
    } catch (e) {
      // a workflow may throw a plain object ({ message, … }) rather than an Error: its message, not "[object Object]"
      const message = e instanceof Error || MedusaError.isMedusaError(e) ? (e as Error).message
        : e && typeof e === "object" && typeof (e as { message?: unknown }).message === "string" ? (e as { message: string }).message
        : typeof e === "object" ? JSON.stringify(e)?.slice(0, 500) ?? String(e) : String(e)
      await writeOutcome(container, callbackId, { outcome: "failed", detail: `processing failed: ${scrub(message)}` })
      throw e
    }
  })
}

/**
 * Processes callback-log rows one after the other: the rows one `payneteasy.callback.received` event names
 * (callback-queue.ts). A row that fails (written `failed` by processCallback) does not stop the rest; once all have
 * run, the first failure is rethrown, so an event bus with retries retries the event, whose rows already done are
 * no-ops then. `process` is the seam the unit test replaces; without it (processCallback) the event's rows are read
 * together first, one statement for the event (a row not among them is read by processCallback itself: NOT_FOUND).
 */
export async function processCallbacks(
  container: MedusaContainer,
  ids: string[],
  process?: (container: MedusaContainer, id: string) => Promise<unknown>
): Promise<void> {
  let failed: { error: unknown } | undefined
  const rows = !process && ids.length > 1 ? await readCallbackRows(container, ids) : new Map<string, CallbackRow>()
  const run = process ?? ((c: MedusaContainer, id: string) => processCallback(c, id, rows.get(id)))
  for (const id of ids) {
    try {
      await run(container, id)
    } catch (error) {
      failed ??= { error }
    }
  }
  if (failed) throw failed.error
}

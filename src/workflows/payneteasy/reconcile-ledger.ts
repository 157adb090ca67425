/**
 * Reconciliation of PAYMENTS: captures, returns and voids the provider recorded while the gateway still said
 * `processing` (src/core/checkout/ledger.ts). One watch row per pending entry (`target` = "capture:<id>" / "refund:<id>" / "void:void"), on the same
 * backoff as sessions (src/core/reconciliation/backoff.ts). Each check asks STATUS for the entry's serial number (read-only; a client built
 * from the provider's own options, src/core/connection/status-client.ts) and:
 * - approved            → the entry's status is written to payment.data (paymentModule.updatePayment, which updates the
 *                         Payment row only and calls no provider); the watch is final. Medusa's Capture / Refund row
 *                         already exists, so Medusa's totals were right all along.
 * - declined / error /
 *   filtered            → Medusa shows money moved that the gateway did not move: the entry gets the final status and
 *                         the reason, the watch is `flagged`, a warning is logged, and the event goes to the callback log
 *                         (source `reconcile`, outcome `flagged`) and the order's metadata.payneteasy_events
 *                         (reflect-later-event.ts). A declined capture or refund is then taken back from Medusa
 *                         (steps/take-back-medusa-record.ts: its row, its order transaction, the collection's totals),
 *                         so the order shows what the gateway holds and the admin can capture or refund again; the
 *                         attention item says so. A declined void is only flagged.
 * - still not final     → next check on the backoff; after an hour the watch is flagged for a person.
 * - not shown yet       → an entry whose request's reply was lost and whose STATUS did not show it yet (no serial,
 *                         `afterSerial` = the order's latest serial before it was sent; core/checkout/follow-up.ts):
 *                         STATUS is asked for the order's latest transaction; a new serial of the entry's kind is its
 *                         transaction (its status decides as above); the same serial means the gateway may still be
 *                         processing it: next check on the backoff, and once the processing window
 *                         (`processingWindowMs`, core/connection/money-request.ts) has passed since it was sent, the
 *                         watch is flagged for a person (an attention item). Nothing is ever sent again.
 * Race with an admin capture/refund running at the same moment: every write here goes through the Payment's ledger
 * lock and waits for a write-back Medusa still owes (core/checkout/payment-ledger.ts), so the payment module no
 * longer puts `processing` back on the entry from a read it made before our write. Discovery still repairs that,
 * should it happen (a write-back that outlived the wait): an entry still pending whose watch already ended with a
 * final gateway status gets that status again (no gateway call).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { laterEventType, type PaynetEasyClient } from "../../gateway"
import type { ReconciliationRow } from "../../modules/payneteasy/service"
import { scrub } from "../../gateway/scrub"
import { GIVE_UP_AFTER_MS } from "../../core/reconciliation/backoff"
import { isApproved, isFinal, parseGatewayStatus } from "../../gateway/statuses"
import { GATEWAY_TYPE, claimedSerials, findEntry, type LedgerKind, type LedgerEntryView, parseTarget, pendingEntries, withEntry, withFinalStatus } from "../../core/checkout/ledger"
import { DEFAULT_PROCESSING_WINDOW_MS, providerOptionsFor, statusClientFor } from "../../core/connection"
import { statusFields } from "../../gateway/requests"
import { callbackParams } from "../../gateway/callback"
import { errorCodeOf, errorMessageOf, serialNumberOf, transactionTypeOf } from "../../gateway/replies"
import { reflectLaterEvent, removeReflectedEvent, type ConfirmedEventFact } from "../../core/callbacks/reflect-later-event"
import { updateWatchStep } from "./steps/update-watch"
import { takeBackMedusaRecordStep } from "./steps/take-back-medusa-record"
import { onLatestPaymentData, withoutWriteBackMark } from "../../core/checkout/payment-ledger"
import { containerLedgerStore, RECONCILIATION_WRITE } from "../../core/checkout/payment-ledger-store"
import { ensureWatched, watchService as service } from "../../core/reconciliation/watch"
import { latestSpeaksFor, ledgerCheck, type EntryView, type LedgerLook, type PaymentRow, type StatusAnswer } from "../../core/reconciliation/ledger-check"

export const RECONCILE_LEDGER_ENTRY_WORKFLOW = "payneteasy-reconcile-ledger-entry"

const PAYMENT_FIELDS = [
  "id", "provider_id", "payment_session_id", "payment_collection_id", "data", "captures.id", "captures.created_at",
  "refunds.id", "refunds.created_at",
]

async function readPayment(container: MedusaContainer, paymentId: string): Promise<PaymentRow | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment", fields: PAYMENT_FIELDS, filters: { id: paymentId } })
  return data[0] as PaymentRow | undefined
}

async function writeFinalStatus(
  container: MedusaContainer,
  paymentId: string,
  target: string,
  status: string,
  error: { errorCode?: string; errorMessage?: string }
): Promise<boolean> {
  // On the Payment's latest data, under its ledger lock, after any write-back Medusa still owes (payment-ledger.ts),
  // so a capture/refund appended meanwhile is kept and this status is not overwritten by a stale write-back.
  return patchLedger(container, paymentId, (data) => withFinalStatus(data, target, status, { ...error, checkedAt: new Date().toISOString() }))
}

/** Applies `patch` to the Payment's stored data through payment-ledger.ts; whether anything was written. */
async function patchLedger(container: MedusaContainer, paymentId: string, patch: (data: Record<string, unknown>) => Record<string, unknown> | undefined): Promise<boolean> {
  let written = false
  await onLatestPaymentData(containerLedgerStore(container, paymentId), {}, async (data) => {
    const change = Object.keys(data).length ? patch(data) : undefined
    written = !!change
    return change ? { ...data, ...change } : data
  }, RECONCILIATION_WRITE)
  return written
}

/** Starts watching pending ledger entries of recently updated PaynetEasy payments; repairs reverted ones. */
export async function discoverLedger(container: MedusaContainer, now: Date, providerIds: string[]): Promise<number> {
  if (!providerIds.length) return 0
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment",
    fields: PAYMENT_FIELDS,
    filters: { provider_id: providerIds, updated_at: { $gte: new Date(now.getTime() - GIVE_UP_AFTER_MS) } } as Record<string, unknown>,
  })
  let added = 0
  for (const payment of data as PaymentRow[]) {
    const pending = pendingEntries(payment.data)
    if (!pending.length) continue
    const rows = await service(container).listPaynetEasyReconciliations({
      session_id: payment.payment_session_id,
      target: pending.map((p) => p.target),
    })
    const byTarget = new Map(rows.map((r) => [r.target, r]))
    for (const p of pending) {
      const row = byTarget.get(p.target)
      if (!row) {
        const medusaRows = p.kind === "capture" ? payment.captures : p.kind === "refund" ? payment.refunds : undefined
        const medusaRow = medusaRows?.find((r) => r.id === p.entry.id)
        const startedAt = medusaRow ? new Date(medusaRow.created_at) : now
        await ensureWatched(container, payment.payment_session_id, payment.provider_id, startedAt, {
          target: p.target,
          paymentId: payment.id,
        })
        added++
      } else if (row.state !== "pending" && isFinal(row.last_status)) {
        await writeFinalStatus(container, payment.id, p.target, row.last_status!, { errorMessage: row.note ?? undefined })
      }
    }
  }
  return added
}

async function askStatus(client: PaynetEasyClient, data: Record<string, unknown>, kind: LedgerKind, serial?: string, afterSerial?: string): Promise<StatusAnswer> {
  const reply = await client.request("STATUS", statusFields({
    clientOrderId: String(data.clientOrderId ?? ""),
    orderId: typeof data.orderId === "string" ? data.orderId : undefined,
    serialNumber: serial,
  }))
  // Without a serial number STATUS describes the order's latest transaction: whether it speaks for this entry is
  // core/reconciliation/ledger-check.ts latestSpeaksFor; otherwise the entry stays pending.
  if (!serial) {
    const speaks = latestSpeaksFor({ afterSerial }, { serial: serialNumberOf(reply), type: laterEventType(transactionTypeOf(reply)) }, kind, claimedSerials(data))
    if (speaks === "not-shown-yet") return { status: "unknown", notShownYet: true }
    if (speaks === "unclear") return { status: "unknown" }
  }
  return {
    status: parseGatewayStatus(reply.status),
    errorCode: errorCodeOf(reply),
    errorMessage: errorMessageOf(reply)?.trim() || undefined,
    serial: serialNumberOf(reply),
  }
}

/** What the attention item says happened to Medusa's record of a declined entry (takeBackMedusaRecordStep). */
const TAKEN_BACK: Record<LedgerKind, string> = {
  capture: "the plugin has taken back Medusa's Capture (the order owes that amount again; capture it again or ask the shopper to pay)",
  refund: "the plugin has taken back Medusa's Refund (the money is still with the merchant; refund it again or contact the shopper)",
  void: "the plugin has taken back Medusa's cancel of the Payment (the hold is still on the card; capture it, or cancel again to release it)",
}

/** Records a declined ledger entry in the callback log (flagged) and on the order; returns what was written. */
async function flagDeclined(
  container: MedusaContainer,
  providerId: string,
  payment: PaymentRow,
  kind: LedgerKind,
  entry: EntryView,
  answer: StatusAnswer
): Promise<{ detail: string; logId: string; fact: ConfirmedEventFact; created: boolean }> {
  const data = payment.data ?? {}
  const svc = service(container)
  const { row: logRow, created } = await svc.recordCallback({
    source: "reconcile",
    provider_id: providerId,
    session_id: payment.payment_session_id,
    orderid: String(data.orderId ?? ""),
    client_orderid: String(data.clientOrderId ?? ""),
    type: GATEWAY_TYPE[kind],
    status: answer.status,
    event_key: `${entry.amount ?? ""}|${entry.serialNumber ?? answer.serial ?? entry.id}`,
    amount: entry.amount ?? null,
    currency: entry.currency ?? (typeof data.currency === "string" ? data.currency : null),
    error_code: answer.errorCode ?? null,
    error_message: answer.errorMessage ?? null,
    action: null,
    params: { medusa_id: entry.id, ...callbackParams({ serialNumber: entry.serialNumber ?? answer.serial ?? null }), payment_id: payment.id },
    received_at: new Date(),
  })
  // STATUS (by the entry's serial number) answered this: a confirmed fact, reflected with the gateway's status.
  const fact: ConfirmedEventFact = {
    logId: logRow.id, source: "reconcile", sessionId: payment.payment_session_id, orderid: logRow.orderid, type: logRow.type,
    status: logRow.status, amount: logRow.amount, currency: logRow.currency,
    serial: entry.serialNumber ?? answer.serial ?? `medusa:${entry.id}`,
    reason: answer.errorMessage ?? answer.errorCode ?? null, receivedAt: logRow.received_at,
  }
  const where = await reflectLaterEvent(container, fact, payment.payment_collection_id)
  const detail = `${kind} ${entry.id} of payment ${payment.id} was ${answer.status} by the gateway after Medusa recorded it: ${TAKEN_BACK[kind]} (${where})`
  await svc.updatePaynetEasyCallbacks({ id: logRow.id, outcome: "flagged", outcome_detail: detail.slice(0, 1000), processed_at: new Date() })
  return { detail, logId: logRow.id, fact, created }
}

const askLedgerStatusStep = createStep("payneteasy-ask-ledger-status", async (input: { row: ReconciliationRow }, { container }) => {
  const row = input.row
  const target = parseTarget(row.target)
  const payment = row.payment_id ? await readPayment(container, row.payment_id) : undefined
  const entry = payment ? pendingEntries(payment.data).find((p) => p.target === row.target)?.entry : undefined
  if (!target || !payment || !entry) return new StepResponse<LedgerLook>({ gone: true })
  let answer: StatusAnswer
  let client: PaynetEasyClient | undefined
  const windowMs = Number(providerOptionsFor(container.resolve("configModule"), row.provider_id)?.processingWindowMs) || DEFAULT_PROCESSING_WINDOW_MS
  try {
    client = statusClientFor(container, row.provider_id)
    answer = await askStatus(client, payment.data ?? {}, target.kind, entry.serialNumber, entry.afterSerial)
  } catch (e) {
    answer = { status: "status-failed", errorMessage: scrub((e as Error)?.message ?? String(e)) }
  } finally {
    await client?.close().catch(() => undefined)
  }
  if (answer.status === "status-failed" && entry.afterSerial !== undefined) answer.notShownYet = true
  return new StepResponse<LedgerLook>({ gone: false, kind: target.kind, payment, entry, answer, windowMs })
})

/** Writes a final gateway status onto the entry in payment.data; compensation puts the entry's previous state back. */
const writeLedgerStatusStep = createStep(
  "payneteasy-write-ledger-status",
  async (input: { paymentId: string; target: string; status: string; errorCode?: string; errorMessage?: string }, { container }) => {
    const before = await readPayment(container, input.paymentId)
    const previous = before?.data ? findEntry(withoutWriteBackMark(before.data), input.target) : undefined
    await writeFinalStatus(container, input.paymentId, input.target, input.status, input)
    return new StepResponse(true, previous ? { paymentId: input.paymentId, target: input.target, previous } : undefined)
  },
  async (undo, { container }) => {
    if (!undo) return
    await patchLedger(container, undo.paymentId, (data) => withEntry(data, undo.target, undo.previous))
  }
)

/** A declined entry into the callback log and onto the order; compensation removes both again. */
const flagDeclinedStep = createStep(
  "payneteasy-flag-declined-ledger-entry",
  async (input: { providerId: string; look: Extract<LedgerLook, { gone: false }> }, { container }) => {
    const { look } = input
    const flagged = await flagDeclined(container, input.providerId, look.payment, look.kind, look.entry, look.answer)
    return new StepResponse(flagged.detail, { ...flagged, paymentCollectionId: look.payment.payment_collection_id })
  },
  async (undo, { container }) => {
    if (!undo) return
    await removeReflectedEvent(container, undo.fact, undo.paymentCollectionId)
    if (undo.created) await service(container).deletePaynetEasyCallbacks(undo.logId)
  }
)

/** Reconciliation of one ledger watch (a capture / refund / void still undecided at the gateway). */
export const reconcileLedgerEntryWorkflow = createWorkflow(
  RECONCILE_LEDGER_ENTRY_WORKFLOW,
  (input: { row: ReconciliationRow; checkedAt: string }) => {
    const look = askLedgerStatusStep({ row: input.row })
    const decided = transform({ look }, ({ look }) => (!look.gone && isFinal(look.answer.status) ? look : undefined))
    when("payneteasy-ledger-status-is-final", { decided }, ({ decided }) => !!decided).then(() => {
      writeLedgerStatusStep(
        transform({ decided, input }, ({ decided, input }) => ({
          paymentId: decided!.payment.id,
          target: input.row.target,
          status: decided!.answer.status,
          errorCode: decided!.answer.errorCode,
          errorMessage: decided!.answer.errorMessage,
        }))
      )
    })
    const flagged = when("payneteasy-ledger-status-is-declined", { decided }, ({ decided }) => !!decided && !isApproved(decided.answer.status)).then(
      () => flagDeclinedStep(transform({ decided, input }, ({ decided, input }) => ({ providerId: input.row.provider_id, look: decided! })))
    )
    // A declined capture or refund: Medusa's Capture / Refund row, its order transaction and the collection's totals
    // are taken back, so the order shows what the gateway holds (and the admin can capture or refund again).
    when("payneteasy-ledger-record-to-take-back", { decided }, ({ decided }) => !!decided && !isApproved(decided.answer.status)).then(() =>
      takeBackMedusaRecordStep(transform({ decided }, ({ decided }) => ({ kind: decided!.kind, id: decided!.entry.id, paymentId: decided!.payment.id })))
    )
    const check = transform({ input, look, flagged }, ({ input, look, flagged }) =>
      ledgerCheck(input.row, look, new Date(input.checkedAt), flagged ?? undefined)
    )
    updateWatchStep(transform({ check }, ({ check }) => check.update))
    return new WorkflowResponse(check)
  }
)

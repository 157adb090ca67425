/**
 * Cancelling a recurring payment from the admin: cancelled here, and its schedule stopped at the gateway.
 *
 * PaynetEasy documents no cancel call; update-recurring-payment moves the schedule's finish date, and "upon reaching
 * finish date, Recurring payment will go into stop status" (gateway/recurring-update.ts), so the stop is an update
 * with today's finish date. Under the recurring payment's lock (`payneteasy:recurring:<row id>`, the one a charge
 * being recorded holds: busy → 409), a workflow of three steps:
 * 1. mark the row cancelled (who, when; no next charge): from then on a charge the gateway still makes is flagged for
 *    a refund and creates no order. Compensation puts the row back, unless a stop request may have been sent;
 * 2. stop the schedule at the gateway: the intent (`gateway_cancel: pending`) is written before the request, whose
 *    client-orderid is `<row id>-stop`, one per row; a lost or unreadable reply is settled by STATUS on it
 *    (core/recurring/gateway-calls.ts), never assumed. No compensation: the gateway documents no way to resume a stop;
 * 3. record what the gateway said: `stopped`, `refused` (the gateway's reason: stop it in the merchant portal) or
 *    `unknown` (STATUS could not tell: an attention item; cancelling again asks STATUS first, sends nothing blindly).
 * Cancelling again is safe: a stopped one answers as it is; an earlier refusal is sent again (a refused request did
 * nothing); a pending or unknown one asks STATUS first.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { scrub } from "../../../gateway/scrub"
import { cardsClient } from "../../../core/connection/cards-config"
import type { RecurringPaymentRow } from "../../../modules/payneteasy/service"
import { stopRecurringPayment, type StopResult } from "../../../core/recurring/gateway-calls"
import { ADMIN_LOCK_WAIT_SECONDS, underLock } from "../../../core/locks/busy-lock"
import { service } from "../../../core/recurring/records"
import { LOCK_KEYS } from "../../../core/locks/lock-keys"
import { isCancellable } from "../../../core/recurring/recurring-phase"

export type CancelOutcome = { row: RecurringPaymentRow; gateway_cancelled: boolean; note: string }

const PORTAL = "stop it in the PaynetEasy merchant portal (Orders → Recurring payments); until then any charge it makes is flagged here for a refund and creates no order"

/** The client-orderid of the stop request of recurring payment row `id`: one per row, so a retry can ask STATUS. */
export const stopClientOrderId = (id: string) => `${id}-stop`

/** What the admin reads about the gateway's side of a cancelled row. */
export function cancelNote(row: RecurringPaymentRow): string {
  switch (row.gateway_cancel) {
    case "stopped":
      return "The gateway stopped the schedule (finish date today): it makes no further charge."
    case "refused":
      return `The gateway refused to stop the schedule (${row.gateway_cancel_reason}): ${PORTAL}.`
    case "unknown":
    case "pending":
      return `Stopping the schedule at the gateway could not be confirmed (${row.gateway_cancel_reason ?? "no answer yet"}): cancel again to ask the gateway, or check it in the merchant portal; until then any charge is flagged here for a refund and creates no order.`
    default:
      return row.recurring_payment_id
        ? `Cancelled here only: ${PORTAL}.`
        : "Cancelled here; the gateway holds no recurring payment for it that this plugin knows of."
  }
}

type Row = RecurringPaymentRow
type Before = Pick<Row, "id" | "status" | "cancelled_at" | "cancelled_by" | "next_charge_at">

const markCancelledStep = createStep(
  "payneteasy-recurring-mark-cancelled",
  async (input: { row: Row; actor: string }, { container }) => {
    const { row } = input
    const before: Before = { id: row.id, status: row.status, cancelled_at: row.cancelled_at, cancelled_by: row.cancelled_by, next_charge_at: row.next_charge_at }
    if (row.status === "cancelled") return new StepResponse(row, null)
    const updated = await service(container).updatePaynetEasyRecurringPayments({
      id: row.id, status: "cancelled", cancelled_at: new Date(), cancelled_by: input.actor, next_charge_at: null,
    })
    return new StepResponse(updated as Row, before)
  },
  async (before: Before | null | undefined, { container }) => {
    if (!before) return
    const [now] = (await service(container).listPaynetEasyRecurringPayments({ id: before.id }, { take: 1 })) as Row[]
    // a stop request may have reached the gateway: the row stays cancelled (cancelling again settles it by STATUS)
    if (!now || now.gateway_cancel === "pending" || now.gateway_cancel === "unknown") return
    await service(container).updatePaynetEasyRecurringPayments(before)
  }
)

const stopAtGatewayStep = createStep("payneteasy-recurring-stop-at-gateway", async (row: Row, { container }) => {
  if (!row.recurring_payment_id || row.gateway_cancel === "stopped") return new StepResponse<StopResult | null>(null)
  const mayHaveBeenSent = row.gateway_cancel === "pending" || row.gateway_cancel === "unknown"
  let client
  try {
    client = cardsClient(container, row.provider_id ?? "")
  } catch (e) {
    return new StepResponse<StopResult | null>({ kind: "refused", message: `nothing was sent: ${(e as Error).message}` })
  }
  await service(container).updatePaynetEasyRecurringPayments({ id: row.id, gateway_cancel: "pending", gateway_cancel_reason: null })
  const result = await stopRecurringPayment(client, {
    clientOrderId: stopClientOrderId(row.id), recurringPaymentId: row.recurring_payment_id, finishDate: new Date(),
  }, mayHaveBeenSent)
  return new StepResponse<StopResult | null>(result)
})

const recordStopStep = createStep("payneteasy-recurring-record-stop", async (input: { row: Row; result: StopResult | null }, { container }) => {
  const { row, result } = input
  if (!result) return new StepResponse(row)
  const reason = result.kind === "stopped" ? null : scrub(result.message)
  const updated = (await service(container).updatePaynetEasyRecurringPayments({ id: row.id, gateway_cancel: result.kind, gateway_cancel_reason: reason })) as Row
  if (result.kind !== "stopped") {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(
      `PaynetEasy: recurring payment ${row.id} is cancelled here but its schedule ${row.recurring_payment_id} was not confirmed stopped at the gateway (${result.kind}): ${reason}`)
  }
  return new StepResponse(updated)
})

export const cancelRecurringPaymentWorkflow = createWorkflow(
  "payneteasy-cancel-recurring-payment",
  (input: { row: Row; actor: string }) => {
    const cancelled = markCancelledStep(input)
    const result = stopAtGatewayStep(cancelled)
    return new WorkflowResponse(recordStopStep({ row: cancelled, result }))
  }
)

export async function cancelRecurringPayment(container: MedusaContainer, id: string, actor: string): Promise<CancelOutcome> {
  const svc = service(container)
  return underLock(container, LOCK_KEYS.recurring(id), async () => {
    const [row] = (await svc.listPaynetEasyRecurringPayments({ id }, { take: 1 })) as Row[]
    if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Recurring payment ${id} was not found`)
    if (row.status !== "cancelled" && !isCancellable(row.status)) {
      throw new MedusaError(MedusaError.Types.CONFLICT, `Recurring payment ${id} is ${row.status}: there is nothing to cancel`)
    }
    const { result } = await cancelRecurringPaymentWorkflow(container).run({ input: { row, actor } })
    const done = result as Row
    return { row: done, gateway_cancelled: done.gateway_cancel === "stopped", note: cancelNote(done) }
  }, { timeoutSeconds: ADMIN_LOCK_WAIT_SECONDS, busy: `Recurring payment ${id} is being changed by another request (a charge being recorded, or another cancel); try again in a moment` })
}

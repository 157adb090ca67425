/**
 * GET /admin/payneteasy/orders/:id/rebill → { balance } — what a rebill may charge on the order now and, when nothing,
 * why (core/saved-cards/rebill-balance.ts): the dashboard's widget shows exactly this.
 *
 * POST /admin/payneteasy/orders/:id/rebill { card_id, amount? } — charges what the order owes and is neither paid nor
 * authorized (or `amount`, at most that) to one of the order customer's saved cards
 * (workflows/payneteasy/saved-cards/admin-rebill.ts). An authorization is never touched.
 * 200 → { payment, gateway_status, rebill } (a repeated request answers the first one's result with rebill.replayed);
 * a decline → 400 with the gateway's reason, nothing recorded as paid; not sent at all (the gateway unreachable, nothing
 * charged) → 502 { type: "rebill_not_sent" }, the same rebill may be tried again;
 * no final answer yet (still processing, or the outcome unknown: reply and STATUS lost) → 202 { type: "payment_pending",
 * message, rebill }: the card may have been charged;
 * 409 { type, message, rebill? }, nothing charged: `rebill_pending` (a rebill of this order has no outcome yet, whatever
 * this request's body: `rebill` names it — id, amount, card), `capture_authorized` (the order's authorization covers
 * what it owes), `no_balance` (nothing owed), `rebill_in_progress` (another rebill still running after the lock's wait).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { adminRebillOrderWorkflow, loadRebillBalance, rebillConflictOf } from "../../../../../../workflows/payneteasy/saved-cards/admin-rebill"
import { isLockTimeout } from "../../../../../../core/locks/busy-lock"
import type { AdminPaynetEasyRebillBodyType } from "../../../_lib/saved-card-validators"

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  res.json({ balance: (await loadRebillBalance(req.scope, req.params.id)).balance })
}

export const POST = async (req: AuthenticatedMedusaRequest<AdminPaynetEasyRebillBodyType>, res: MedusaResponse) => {
  const body = req.validatedBody
  let result
  try {
    ;({ result } = await adminRebillOrderWorkflow(req.scope).run({
      input: { order_id: req.params.id, card_id: body.card_id, amount: body.amount, requested_by: req.auth_context?.actor_id },
    }))
  } catch (e) {
    // Another rebill of this order still holding its lock after the wait (busy-lock.ts: a 500 or a generic 409
    // otherwise, depending on the locking provider): nothing was charged by this request.
    if (isLockTimeout(e)) {
      res.status(409).json({
        type: "rebill_in_progress",
        message: `Another rebill of order ${req.params.id} is still running; nothing was charged by this request. Try again when it has finished.`,
      })
      return
    }
    // Nothing may be charged (a pending rebill, an authorization to capture, nothing owed): Medusa's error handler
    // would answer its generic "retry" text for a conflict, the opposite of what the admin must do.
    const conflict = rebillConflictOf(e)
    if (conflict) {
      res.status(409).json(conflict)
      return
    }
    throw e
  }
  const { payment, gateway_status, ...rebill } = result
  if (result.state === "pending") {
    res.status(202).json({
      type: "payment_pending",
      message: `PaynetEasy has not confirmed the rebill yet: ${result.error ?? gateway_status ?? "no final answer"}. Check the order at the gateway before charging again.`,
      payment,
      gateway_status,
      rebill,
    })
    return
  }
  if (result.state === "failed" && !gateway_status) {
    res.status(502).json({
      type: "rebill_not_sent",
      message: `The rebill did not reach PaynetEasy, so nothing was charged: ${result.error ?? "no answer"}. It may be tried again.`,
      rebill,
    })
    return
  }
  if (result.state !== "succeeded") {
    res.status(400).json({
      type: "payment_declined",
      message: `PaynetEasy did not approve the rebill: ${result.error ?? gateway_status ?? "no final answer yet"}`,
      gateway_status,
      rebill,
    })
    return
  }
  res.json({ payment, gateway_status, rebill })
}

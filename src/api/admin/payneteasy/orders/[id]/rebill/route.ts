/**
 * POST /admin/payneteasy/orders/:id/rebill { card_id, amount? } — charges the order's outstanding amount (or `amount`,
 * at most the outstanding) to one of the order customer's saved cards (workflows/payneteasy/saved-cards/admin-rebill.ts).
 * 200 → { payment, gateway_status, rebill } (a repeated request answers the first one's result with rebill.replayed);
 * a decline → 400 with the gateway's reason, nothing recorded as paid;
 * no final answer yet (still processing, or the outcome unknown: reply and STATUS lost) → 202 { type: "payment_pending",
 * message, rebill }: the card may have been charged, so the same rebill is refused (409) until the gateway's callback or
 * reconciliation books it on the order or marks it failed; another rebill of the order still running after the
 * lock's wait → 409 { type: "rebill_in_progress" }, nothing charged.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { adminRebillOrderWorkflow } from "../../../../../../workflows/payneteasy/saved-cards/admin-rebill"
import { isLockTimeout } from "../../../../../../workflows/payneteasy/busy-lock"
import type { AdminPaynetEasyRebillBodyType } from "../../../_lib/saved-card-validators"

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
    // An earlier rebill with no recorded outcome: Medusa's error handler would answer its generic "retry" text for a
    // conflict, the opposite of what the admin must do.
    if ((e as { type?: unknown })?.type === MedusaError.Types.CONFLICT) {
      res.status(409).json({ type: "rebill_pending", message: (e as Error).message })
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

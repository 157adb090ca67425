/**
 * A guard in front of Medusa's POST /admin/payments/:id/capture, /admin/payments/:id/refund and
 * /admin/orders/:id/cancel: one of them at a time per order, the whole request long (every provider's payments).
 *
 * Medusa's own workflows go wrong when two run at once on one order (core-flows 2.21.2, found from outside, stop 62):
 * the capture and refund workflows book every Capture / Refund row that has no order transaction yet with THEIR
 * request's amount (two captures of 4 and 6.42 at once were booked 4 + 4: the summary said 8 paid, the gateway 10.42),
 * and a second refund's credit line fails on the first's open order change ("already has an existing active order
 * change", 400) after its money went back (Medusa keeps the Refund and drops its transaction: the admin sees an error
 * and may refund again). The payment's ledger lock (core/checkout/payment-ledger.ts) covers only the provider's call,
 * not Medusa's steps after it, so this takes the order's lock before Medusa starts and gives it back when the answer
 * is sent. Reconciliation still repairs what slips past (core/reconciliation/transaction-repair.ts). A wait longer
 * than ADMIN_ACTION_WAIT_SECONDS answers 409 in words; an unknown payment goes on to Medusa's own 404.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { LOCK_KEYS } from "../core/locks/lock-keys"
import { isLockTimeout } from "../core/locks/busy-lock"

/** How long an admin capture, refund or cancel waits for another one of the same order (a slow gateway's follow-up). */
export const ADMIN_ACTION_WAIT_SECONDS = 45

async function orderOfPayment(req: MedusaRequest, paymentId: string): Promise<string | undefined> {
  const [payment] = await req.scope.resolve(Modules.PAYMENT).listPayments({ id: paymentId }, { select: ["id", "payment_collection_id"] })
  if (!payment?.payment_collection_id) return undefined
  const { data } = await req.scope.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order_payment_collection", fields: ["order_id"], filters: { payment_collection_id: payment.payment_collection_id },
  })
  return (data[0] as { order_id?: string } | undefined)?.order_id
}

function oneAtATime(orderIdOf: (req: MedusaRequest) => Promise<string | undefined>) {
  return async (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    const orderId = await orderIdOf(req)
    if (!orderId) return next()
    let started = false
    try {
      await req.scope.resolve(Modules.LOCKING).execute(LOCK_KEYS.adminMoneyAction(orderId), () => new Promise<void>((done) => {
        started = true
        res.once("finish", () => done())
        res.once("close", () => done())
        next()
      }), { timeout: ADMIN_ACTION_WAIT_SECONDS })
    } catch (e) {
      if (!started && isLockTimeout(e) && !res.headersSent) {
        return void res.status(409).json({
          type: "conflict",
          message: `Another capture, refund or cancel of order ${orderId} is still running (a slow gateway?); nothing was done. Try again in a moment.`,
        })
      }
      if (!started) throw e
    }
  }
}

/** POST /admin/payments/:id/capture and /refund: keyed by the payment's order. */
export const oneMoneyActionPerOrderOfPayment = oneAtATime((req) => (req.params?.id ? orderOfPayment(req, req.params.id) : Promise.resolve(undefined)))
/** POST /admin/orders/:id/cancel: keyed by the order. */
export const oneMoneyActionPerOrder = oneAtATime(async (req) => req.params?.id)

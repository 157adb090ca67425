/**
 * The step the store's card routes share (the direct flow's card, a saved card's CVV): hand something that must never
 * be stored to the provider through the payment module's updatePaymentSession — a plain module call, not a workflow,
 * whose step inputs could be persisted; Medusa stores only the provider's output — under the cart's lock, and answer
 * the way both routes do.
 *
 * The lock is the cart's (what cart completion and the callback's settle-session take): without it, a late callback
 * for attempt n could write its stale outcome over attempt n+1's. Inside the lock the session is read again.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError, Modules, PaymentSessionStatus } from "@medusajs/framework/utils"
import { sessionView as view } from "../session-view"

type Session = { id: string; provider_id: string; status: string; data?: Record<string, unknown> | null; amount: unknown; currency_code: string; payment_collection_id: string }

/**
 * Loads the PaynetEasy session `req.params.id` (404 unknown, 400 another provider's; `accept` may refuse it too),
 * then, under the cart's lock, unless it is paid already (409), updates it with `extra` on top of its own data.
 * Answers 200 { payment_session }, 402 payment_declined with the gateway's reason, or 409.
 */
export async function updateSessionUnderCartLock(
  req: MedusaRequest,
  res: MedusaResponse,
  extra: Record<string, unknown>,
  accept: (session: Session) => void = () => undefined
): Promise<void> {
  const paymentModule = req.scope.resolve(Modules.PAYMENT)
  const id = req.params.id
  const load = async () => {
    const [found] = await paymentModule.listPaymentSessions(
      { id },
      { select: ["id", "provider_id", "status", "data", "amount", "raw_amount", "currency_code", "authorized_at", "payment_collection_id"] }
    )
    return found
  }
  const first = await load()
  if (!first) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${id} was not found`)
  }
  if (!first.provider_id.startsWith("pp_payneteasy_")) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "This payment session does not belong to PaynetEasy")
  }
  accept(first as Session)

  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({
    entity: "cart_payment_collection",
    fields: ["cart_id"],
    filters: { payment_collection_id: first.payment_collection_id },
  })
  const lockKey = (links[0] as { cart_id?: string } | undefined)?.cart_id ?? first.id
  const locking = req.scope.resolve(Modules.LOCKING)

  const updated = await locking.execute(
    lockKey,
    async () => {
      const session = (await load())!
      if (session.authorized_at || session.status === PaymentSessionStatus.AUTHORIZED || session.status === PaymentSessionStatus.CAPTURED) {
        return undefined
      }
      return paymentModule.updatePaymentSession({
        id: session.id,
        // What the route validated goes to the provider, which parses it again; the session's own data is the base.
        data: { ...(session.data ?? {}), ...extra },
        amount: (session as any).raw_amount ?? session.amount,
        currency_code: session.currency_code,
      })
    },
    { timeout: 30 }
  )
  if (!updated) {
    res.status(409).json({ type: "not_allowed", message: "This payment session is already paid" })
    return
  }

  if (updated.status === PaymentSessionStatus.ERROR) {
    const error = (updated.data as { error?: { message?: string } } | undefined)?.error
    res.status(402).json({
      type: "payment_declined",
      message: error?.message ?? "The payment was declined",
      payment_session: view(updated as any),
    })
    return
  }
  res.status(200).json({ payment_session: view(updated as any) })
}

/**
 * The step the store's card routes share (the direct flow's card, a saved card's CVV): hand something that must never
 * be stored to the provider through the payment module's updatePaymentSession — a plain module call, not a workflow,
 * whose step inputs could be persisted; Medusa stores only the provider's output — under the cart's lock, and answer
 * the way both routes do.
 *
 * The lock is the cart's (what cart completion and the callback's settle-session take): without it, a late callback
 * for attempt n could write its stale outcome over attempt n+1's. Inside the lock the session is read again. A
 * collection with no cart is locked by its own id, as the paid-collection guard and settle-session lock it.
 *
 * Once a session is paid, the collection's other sessions that never reached the gateway are deleted, still under the
 * lock: cart completion authorizes the collection's first processable session, and a sibling left over from a double
 * click or a second tab (refused, nothing charged) must not be the one it picks while the card was charged here.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { BigNumberInput } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules, PaymentSessionStatus } from "@medusajs/framework/utils"
import { lockKeyOfCollection } from "../../../../core/locks/collection-lock"
import { underLock } from "../../../../core/locks/busy-lock"
import { scrub } from "../../../../gateway/scrub"
import { paymentIdsText } from "../../../../core/telemetry/payment-log"
import { sessionAmount, sessionView as view } from "../session-view"

const BUSY = "This payment is still being paid in another request (the gateway has not answered it yet); nothing was charged by this one. Wait for that payment's result before trying again."

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

  // the collection's lock (its cart's, or its own id without one): the key the paid-collection guard takes when a new
  // session replaces this one, so a card charge and that deletion never interleave (money-attacks.spec.ts)
  const lockKey = await lockKeyOfCollection(req.scope, first.payment_collection_id)
  // A wait that runs out (another payment of this collection still with the gateway) is a 409 in words, not a 500;
  // answered here, since Medusa's error handler puts its own generic text on a CONFLICT.
  const updated = await underLock(
    req.scope,
    lockKey,
    async () => {
      const session = await load()
      if (!session) return "gone" as const // deleted meanwhile: a sibling session was paid (see the header)
      if (session.authorized_at || session.status === PaymentSessionStatus.AUTHORIZED || session.status === PaymentSessionStatus.CAPTURED) {
        return undefined
      }
      const result = await paymentModule.updatePaymentSession({
        id: session.id,
        // What the route validated goes to the provider, which parses it again; the session's own data is the base.
        data: { ...(session.data ?? {}), ...extra },
        amount: sessionAmount(session) as BigNumberInput,
        currency_code: session.currency_code,
      })
      if (result.status === PaymentSessionStatus.CAPTURED || result.status === PaymentSessionStatus.AUTHORIZED) {
        await dropUnsentSiblings(req, session.payment_collection_id, session.id)
      }
      return result
    },
    { timeoutSeconds: 30, busy: BUSY }
  ).catch((e: unknown) => {
    if (e instanceof MedusaError && e.type === MedusaError.Types.CONFLICT && e.message === BUSY) return "busy" as const
    throw e
  })
  if (updated === "busy") {
    res.status(409).json({ type: "conflict", message: BUSY })
    return
  }
  if (!updated) {
    res.status(409).json({ type: "not_allowed", message: "This payment session is already paid" })
    return
  }
  if (updated === "gone") {
    res.status(409).json({ type: "not_allowed", message: "This payment is already paid with another payment session; nothing was charged" })
    return
  }

  if (updated.status === PaymentSessionStatus.ERROR) {
    const error = (updated.data as { error?: { message?: string } } | undefined)?.error
    res.status(402).json({
      type: "payment_declined",
      message: error?.message ?? "The payment was declined",
      payment_session: view(updated),
    })
    return
  }
  res.status(200).json({ payment_session: view(updated) })
}

/** A session's data shows no request to the gateway: no gateway order id, no gateway status. */
const unsent = (data: Record<string, unknown> | null | undefined) => !data?.orderId && !data?.gatewayStatus

/** Deletes the collection's sessions other than `paidId` that are not paid and never reached the gateway. */
async function dropUnsentSiblings(req: MedusaRequest, collectionId: string, paidId: string): Promise<void> {
  const paymentModule = req.scope.resolve(Modules.PAYMENT)
  const siblings = await paymentModule.listPaymentSessions(
    { payment_collection_id: collectionId },
    { select: ["id", "status", "data", "authorized_at"] }
  )
  for (const s of siblings) {
    if (s.id === paidId || s.authorized_at || s.status === PaymentSessionStatus.AUTHORIZED || s.status === PaymentSessionStatus.CAPTURED) continue
    if (!unsent(s.data)) continue
    await paymentModule.deletePaymentSession(s.id).catch((e) => {
      req.scope.resolve(ContainerRegistrationKeys.LOGGER).warn(`PaynetEasy: could not delete unpaid payment session ${s.id} next to paid ${paidId}: ${scrub((e as Error).message)}${paymentIdsText({ paymentSessionId: s.id })}`)
    })
  }
}

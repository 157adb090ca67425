/**
 * A guard in front of Medusa's payment-session routes (POST /store/payment-collections/:id/payment-sessions and the
 * admin's POST /admin/payment-collections/:id/payment-sessions): a new session on a collection that is paid or
 * authorized is refused 409 in words before Medusa runs (issue 49, defect 1). Medusa's createPaymentSessionsWorkflow
 * would delete the collection's sessions and call the provider's deletePayment with data naming the preauth behind a
 * placed order; a second tab, a stale pay-again button or a script with the publishable key could do that. Every
 * provider's sessions are guarded, not only PaynetEasy's: no collection that holds money has its sessions replaced.
 *
 * The rule is core/checkout/paid-collection.ts. The check is made again under the collection's lock
 * (core/locks/collection-lock.ts: its cart's, the key cart completion, the card routes and settle-session take; a
 * cartless collection's own id), which is held until Medusa has answered: a cart completing
 * at this moment either finishes first (then the collection is authorized and the request is refused) or waits. So
 * does the saved-card route's charge (it takes the same lock): a charge made meanwhile is refused here in words too.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { Modules } from "@medusajs/framework/utils"
import { paidCollectionRefusal } from "../core/checkout/paid-collection"
import { savedCardPaymentRefusal } from "./payment-session-data-guard"
import { lockKeyOfCollection } from "../core/locks/collection-lock"

/** Medusa's own lock timeout for a cart is 30 s (locking module); the route waits at most that long for it. */
const LOCK_TIMEOUT_S = 30

async function refusalFor(req: MedusaRequest, collectionId: string): Promise<string | undefined> {
  const [collection] = await req.scope
    .resolve(Modules.PAYMENT)
    .listPaymentCollections({ id: collectionId }, { select: ["id", "status"], relations: ["payments"] })
  return collection ? paidCollectionRefusal(collection) : undefined // unknown ids: Medusa's own 404
}

function refuse(res: MedusaResponse, message: string): void {
  res.status(409).json({ type: "not_allowed", message })
}

export async function refuseNewSessionOnPaidCollection(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const collectionId = req.params?.id
  if (!collectionId) return next()
  const early = await refusalFor(req, collectionId)
  if (early) return refuse(res, early)
  const key = await lockKeyOfCollection(req.scope, collectionId)
  await req.scope.resolve(Modules.LOCKING).execute(
    key,
    async () => {
      // a saved card may have paid while this request waited for the lock (the saved-card route charges under it):
      // Medusa would fail to delete that session with a 500 (money-attacks.spec.ts)
      const late = (await refusalFor(req, collectionId)) ?? (await savedCardPaymentRefusal(collectionId))
      if (late) return refuse(res, late)
      // held until the route has answered (or the client has gone): Medusa replaces the sessions inside the lock
      await new Promise<void>((resolve) => {
        res.once("finish", resolve)
        res.once("close", resolve)
        next()
      })
    },
    { timeout: LOCK_TIMEOUT_S }
  )
}

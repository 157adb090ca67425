/**
 * The one lock key of a payment collection's money: what a card charge on one of its sessions, the authorization of a
 * session (settle-session, an admin rebill) and the replacement of its sessions (Medusa's payment-session routes
 * behind the paid-collection guard, a payment link starting a new session) all take, so that none of them interleave.
 * A checkout's collection is locked by its cart's id: Medusa's own cart lock, which cart completion takes. A
 * collection with no cart (an order edit's, an exchange's, a claim's: a payment link) by its own id.
 *
 * Named once because three places once spelled it three ways (the card route the collection's id, the guard a
 * payment-link key): a card charge and a new session on an order edit's collection did not exclude each other, and
 * the charge's session was deleted under it (money-attacks.spec.ts, "an order edit's own payment collection").
 * Never nest two executions of it: Medusa's locks are not re-entrant.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

/** The key, when the collection's cart (if any) is known already. */
export function collectionLockKey(cartId: string | null | undefined, collectionId: string): string {
  return cartId || collectionId
}

/** The key, reading the collection's cart link (cart_payment_collection). */
export async function lockKeyOfCollection(container: Pick<MedusaContainer, "resolve">, collectionId: string): Promise<string> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "cart_payment_collection",
    fields: ["cart_id"],
    filters: { payment_collection_id: collectionId },
  })
  return collectionLockKey((data[0] as { cart_id?: string } | undefined)?.cart_id, collectionId)
}

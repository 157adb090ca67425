/**
 * The provider's window onto the plugin module's saved cards (models/saved-card.ts).
 *
 * Why this exists: Medusa runs a payment provider inside the payment module's own container, which cannot resolve
 * other modules; but paying with `data.card_id`, listPaymentMethods and deletePaymentMethod need the card rows. The
 * plugin module is registered in the application's container (`@medusajs/framework` `container`), so we resolve it
 * from there, lazily, at call time. Only the few calls below are used; the row type is the module's.
 */
import { container } from "@medusajs/framework"
import { MedusaError } from "@medusajs/framework/utils"
import type { InferTypeOf } from "@medusajs/framework/types"
import type { PaynetEasySavedCard } from "../../modules/payneteasy/models/saved-card"
import { SAVED_CARD_ID } from "./card-id"

export { SAVED_CARD_ID }

/** A saved-card row, as the model defines it (models/saved-card.ts). */
export type SavedCardRow = InferTypeOf<typeof PaynetEasySavedCard>

/** What a shopper or the admin may see of a card: never the card-ref-id. */
export type PublicCard = Pick<SavedCardRow, "id" | "brand" | "bin" | "last4" | "exp_month" | "exp_year" | "holder" | "created_at">

export function publicCard(row: SavedCardRow): PublicCard {
  return {
    id: row.id, brand: row.brand, bin: row.bin, last4: row.last4, exp_month: row.exp_month, exp_year: row.exp_year,
    holder: row.holder, created_at: row.created_at,
  }
}

/** A card as the admin's customer page lists it (GET /admin/payneteasy/customers/:id/cards): where it came from too. */
/** `displayIds`: the source orders' display ids ("#18" in the dashboard), when the caller read them. */
export function adminCardView(r: SavedCardRow, displayIds: Map<string, number> = new Map()) {
  return {
    ...publicCard(r), source: r.source, source_order_id: r.source_order_id,
    source_order_display_id: r.source_order_id ? displayIds.get(r.source_order_id) ?? null : null, last_used_at: r.last_used_at,
  }
}

type CardService = {
  listPaynetEasySavedCards(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<SavedCardRow[]>
  updatePaynetEasySavedCards(data: Record<string, unknown>): Promise<unknown>
  softDeletePaynetEasySavedCards(ids: string[]): Promise<unknown>
}

/** The plugin module's service, resolved from the application's container (see above). */
export function pluginService<T>(): T {
  try {
    return container.resolve("payneteasy") as T
  } catch {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "Saved cards need the medusa-payment-payneteasy plugin (its module) to be registered")
  }
}

const cardService = () => pluginService<CardService>()

/** The customer's usable (active, not deleted) cards, newest first. */
export async function activeCardsOf(customerId: string): Promise<SavedCardRow[]> {
  return cardService().listPaynetEasySavedCards({ customer_id: customerId, state: "active" }, { order: { created_at: "DESC" } })
}

/** One of the customer's usable cards, or a 404 (another customer's card looks exactly like a missing one). */
export async function ownedActiveCard(customerId: string, cardId: string): Promise<SavedCardRow> {
  const [row] = SAVED_CARD_ID.test(cardId)
    ? await cardService().listPaynetEasySavedCards({ id: cardId, customer_id: customerId, state: "active" }, { take: 1 })
    : []
  if (!row || !row.card_ref_id) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, SAVED_CARD_ID.test(cardId) ? `Saved card ${cardId} was not found` : "Saved card was not found")
  }
  return row
}

export async function markUsed(cardId: string): Promise<void> {
  await cardService().updatePaynetEasySavedCards({ id: cardId, last_used_at: new Date() })
}

export async function softDeleteCard(customerId: string, cardId: string): Promise<void> {
  const row = await ownedActiveCard(customerId, cardId)
  await cardService().softDeletePaynetEasySavedCards([row.id])
}

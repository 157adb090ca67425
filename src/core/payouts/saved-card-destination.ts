/**
 * A customer's saved card as a payout destination (`{ type: "saved_card", card_id }`).
 *
 * The admin names the plugin's card id (`pnecard_…`); the card must be active (verified, not deleted) and belong to
 * the same provider registration that sends the payout (a card reference only works with the merchant account that
 * created it). The payout keeps the card's masked summary from the card row; the gateway's card-ref-id is read from
 * the row only when the request is sent (`destination-card-ref-id`), so it is never stored on the payout, in its
 * history, in the workflow's input, or returned.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { PAYNETEASY_MODULE } from "../../modules/payneteasy"
import { SAVED_CARD_ID } from "../saved-cards/card-id"
import type { SavedCardRow } from "../saved-cards/records"

type CardList = { listPaynetEasySavedCards(f: Record<string, unknown>, c?: Record<string, unknown>): Promise<SavedCardRow[]> }

/** The active saved card `cardId`, or a 400 naming `destination.card_id` (unknown, deleted or not verified yet). */
export async function payoutCard(container: MedusaContainer, cardId: string): Promise<SavedCardRow> {
  const service = container.resolve<CardList>(PAYNETEASY_MODULE)
  const [row] = SAVED_CARD_ID.test(cardId) ? await service.listPaynetEasySavedCards({ id: cardId, state: "active" }, { take: 1 }) : []
  if (!row || !row.card_ref_id) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `destination.card_id: saved card ${cardId} was not found (unknown, deleted or not verified)`)
  }
  return row
}

/** The saved card, refused (400) when it was saved under another provider registration than the payout's. */
export async function payoutCardFor(container: MedusaContainer, cardId: string, providerId: string): Promise<SavedCardRow> {
  const row = await payoutCard(container, cardId)
  if (row.provider_id !== providerId) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `destination.card_id: saved card ${cardId} belongs to provider ${row.provider_id}, but payouts are sent by ${providerId} (a card reference works only with the merchant account that created it)`
    )
  }
  return row
}

/** What the payout keeps: brand, BIN and last four from the card row, and the plugin's card id. */
export function savedCardSummary(row: SavedCardRow): string {
  return `saved card ${row.brand ?? "card"} ${row.bin ?? "******"}******${row.last4 ?? "****"} (${row.id})`
}

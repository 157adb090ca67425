/**
 * A customer's saved card: the gateway's card reference (card-ref-id) and what may be shown about the card. Never
 * the card number or CVV — only brand, BIN, last four, expiry and printed name, as get-card-info tells them.
 *
 * A row starts as `verifying` when the customer adds a card through the hosted zero-amount account verification
 * (`verification_client_orderid` set, no card yet); it becomes `active` once the gateway approved it and the card
 * reference was created. Cards saved after a checkout are `active` from the start. Deleting soft-deletes (deleted_at):
 * a deleted card is never listed nor charged. `card_ref_id` never leaves the backend.
 */
import { model } from "@medusajs/framework/utils"

export const SAVED_CARD_STATES = ["verifying", "active"] as const

export const PaynetEasySavedCard = model
  .define("payneteasy_saved_card", {
    id: model.id({ prefix: "pnecard" }).primaryKey(),
    /** Medusa customer id of the owner (always a registered customer, never a guest). */
    customer_id: model.text(),
    /** The payment provider registration whose merchant account holds the card reference (pp_payneteasy_<id>). */
    provider_id: model.text(),
    state: model.enum([...SAVED_CARD_STATES]).default("active"),
    card_ref_id: model.text().nullable(),
    /** "v2" (control checksum) or "v4" (RSA-SHA256): how the reference was created. */
    card_ref_version: model.text().nullable(),
    brand: model.text().nullable(),
    bin: model.text().nullable(),
    last4: model.text().nullable(),
    exp_month: model.text().nullable(),
    exp_year: model.text().nullable(),
    holder: model.text().nullable(),
    /** Where it came from: "checkout" (a paid order) or "verification" (the add-card page). */
    source: model.text(),
    source_order_id: model.text().nullable(),
    source_session_id: model.text().nullable(),
    /** The gateway order the reference was created from (paynet-order-id). */
    source_gateway_order_id: model.text().nullable(),
    verification_client_orderid: model.text().nullable(),
    last_used_at: model.dateTime().nullable(),
  })
  .indexes([
    { name: "IDX_payneteasy_saved_card_customer", on: ["customer_id"] },
    {
      name: "IDX_payneteasy_saved_card_ref_unique",
      on: ["customer_id", "provider_id", "card_ref_id"],
      unique: true,
      where: "card_ref_id IS NOT NULL AND deleted_at IS NULL",
    },
  ])

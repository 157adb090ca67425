/**
 * One charge of a saved card for a payment collection (a checkout paid with a saved card, or a subscription engine's
 * `payment_method` + `off_session` renewal): the intent record that makes it happen at most once per collection.
 *
 * Why a row of its own: Medusa lets any number of sessions exist on one collection (created one after another, or at
 * the same time before either deletes the other), and a subscription engine authorizes its session outside any cart
 * lock. The unique index below admits one live charge per collection across every instance; a second session finds
 * it and is refused, and a session holding it cannot be deleted (saved-card-payment.ts), so no charge is orphaned.
 * Only a charge that certainly took no money (`declined`, `not_sent`) lets the collection be charged again, under a
 * new client order id. No CVV, card number or card reference is stored here.
 */
import { model } from "@medusajs/framework/utils"

/** sending: recorded, the request may be on its way; pending: sent, outcome not known; the rest are final. */
export const CARD_CHARGE_STATES = ["sending", "pending", "approved", "declined", "not_sent"] as const
export const LIVE_CARD_CHARGE_STATES = ["sending", "pending", "approved"] as const

export const PaynetEasyCardCharge = model
  .define("payneteasy_card_charge", {
    id: model.id({ prefix: "pnecc" }).primaryKey(),
    payment_collection_id: model.text(),
    session_id: model.text(),
    client_orderid: model.text(),
    card_id: model.text(),
    customer_id: model.text(),
    /** major units, decimal string (exact), as sent to the gateway; currency as the gateway spells it (EUR) */
    amount: model.text(),
    currency: model.text(),
    off_session: model.boolean().default(false),
    state: model.enum([...CARD_CHARGE_STATES]).default("sending"),
    gateway_order_id: model.text().nullable(),
    gateway_status: model.text().nullable(),
    error_message: model.text().nullable(),
  })
  .indexes([
    { name: "IDX_payneteasy_card_charge_session", on: ["session_id"] },
    { name: "IDX_payneteasy_card_charge_client_orderid_unique", on: ["client_orderid"], unique: true, where: "deleted_at IS NULL" },
    {
      name: "IDX_payneteasy_card_charge_live_unique",
      on: ["payment_collection_id"],
      unique: true,
      where: "state IN ('sending', 'pending', 'approved') AND deleted_at IS NULL",
    },
  ])

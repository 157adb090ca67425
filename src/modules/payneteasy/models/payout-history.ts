/**
 * The audit trail of a payout: one row per state change, never updated or deleted (the plugin only appends, through
 * the service's `changePayout`; migration Migration20261123160000 installs a trigger that refuses UPDATE and DELETE
 * on the table).
 * `gateway` holds the gateway's answer as received (status, type, serial, error code and message), scrubbed of
 * anything card-like; `actor` is `user:<admin id>`, `gateway:callback`, `gateway:status` or `system`.
 */
import { model } from "@medusajs/framework/utils"

export const PaynetEasyPayoutHistory = model
  .define("payneteasy_payout_history", {
    id: model.id({ prefix: "pnepoh" }).primaryKey(),
    payout_id: model.text(),
    at: model.dateTime(),
    actor: model.text(),
    event: model.text(),
    from_status: model.text().nullable(),
    to_status: model.text(),
    gateway: model.json().nullable(),
    note: model.text().nullable(),
  })
  .indexes([{ name: "IDX_payneteasy_payout_history_payout_id", on: ["payout_id", "at"] }])

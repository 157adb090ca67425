/**
 * Callback log: one row per distinct gateway event (server callback, shopper return, or an outcome the
 * reconciliation job learned by asking STATUS).
 *
 * Why a table with a uniqueness rule: the gateway retries a callback up to 30 times over 14 days until it gets a
 * 200, and may send the same one twice even after a 200 (gateway notes §7: "check status, type, orderid and
 * client_orderid"). The unique index on (source, orderid, client_orderid, type, status) makes the second insert fail,
 * so a duplicate is recorded once and processed once. `source` is part of the key so that the shopper's return
 * (which never counts as the outcome) cannot shadow the server callback carrying the same four values.
 *
 * `params` holds the request as received minus secrets and card data (no control, PAN, CVV; see src/core/callbacks/params.ts
 * `storableParams`).
 * `outcome` says what our processing did with the event; `outcome_detail` says why, in words an admin can act on.
 */
import { model } from "@medusajs/framework/utils"
import type { InferTypeOf } from "@medusajs/framework/types"

export const CALLBACK_SOURCES = ["callback", "return", "reconcile"] as const
/** `flagged`: genuine, and a person must act (e.g. an approved payment for a session Medusa no longer has). */
export const CALLBACK_OUTCOMES = ["received", "processed", "ignored", "failed", "flagged"] as const

export const PaynetEasyCallback = model
  .define("payneteasy_callback", {
    id: model.id({ prefix: "pnecb" }).primaryKey(),
    source: model.enum([...CALLBACK_SOURCES]).default("callback"),
    provider_id: model.text(),
    session_id: model.text().nullable(),
    orderid: model.text(),
    client_orderid: model.text(),
    type: model.text(),
    status: model.text(),
    event_key: model.text().default(""),
    amount: model.text().nullable(),
    currency: model.text().nullable(),
    error_code: model.text().nullable(),
    error_message: model.text().nullable(),
    action: model.text().nullable(),
    params: model.json(),
    outcome: model.enum([...CALLBACK_OUTCOMES]).default("received"),
    outcome_detail: model.text().nullable(),
    received_at: model.dateTime(),
    processed_at: model.dateTime().nullable(),
  })
  .indexes([
    {
      name: "IDX_payneteasy_callback_event_key_unique",
      on: ["source", "orderid", "client_orderid", "type", "status", "event_key"],
      unique: true,
    },
    { name: "IDX_payneteasy_callback_session_id", on: ["session_id"] },
    // reads by outcome, oldest or newest first (the reconciliation tick's stale callbacks, the attention queue) and the
    // attention queue's disputes: flat however long the log (Migration20261125210000, bench "growth";
    // Migration20261203120000: every dispute spelling, gateway/disputes.ts DISPUTE_TYPE_WORDS)
    { name: "IDX_payneteasy_callback_outcome_received_at", on: ["outcome", "received_at"], where: "deleted_at IS NULL" },
    {
      name: "IDX_payneteasy_callback_dispute_received_at",
      on: ["received_at"],
      where: "(type ILIKE '%chargeback%' OR type ILIKE '%retrieval%' OR type ILIKE '%fraud%') AND deleted_at IS NULL",
    },
  ])

/** One row of the callback log, as the module service returns it. */
export type CallbackRow = InferTypeOf<typeof PaynetEasyCallback>

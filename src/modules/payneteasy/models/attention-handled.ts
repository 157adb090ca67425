/**
 * Who marked an attention item handled, and when. The attention queue (GET /admin/payneteasy/attention) is derived
 * from the callback log and the reconciliation state — those rows are the facts and are never edited by the admin —
 * so "handled" is a separate record keyed by the item's id (a callback-log or reconciliation row id). One row per
 * item (unique), so two admins pressing the button at once record the first one.
 */
import { model } from "@medusajs/framework/utils"

export const PaynetEasyAttentionHandled = model
  .define("payneteasy_attention_handled", {
    id: model.id({ prefix: "pneah" }).primaryKey(),
    /** The attention item: a `payneteasy_callback` id (pnecb_…) or a `payneteasy_reconciliation` id (pnerc_…). */
    item_id: model.text(),
    /** The Medusa user id of the admin who marked it. */
    handled_by: model.text(),
    handled_at: model.dateTime(),
    note: model.text().nullable(),
  })
  .indexes([{ name: "IDX_payneteasy_attention_handled_item_unique", on: ["item_id"], unique: true }])

/**
 * Reconciliation state: one row per thing of ours whose gateway outcome is not final yet:
 * - a payment session (`target` = ""): its initial sale / preauth;
 * - a ledger entry of a Payment (`target` = "capture:<Medusa capture id>" or "refund:<Medusa refund id>",
 *   `payment_id` set): a capture / return the provider recorded while the gateway still said `processing`.
 *
 * The gateway's polling advice (gateway notes §4): "pull the status every 3-5 seconds for the first 5 minutes, then
 * continue requests for up to an hour once in 5-10 minutes", after which a person must look. The schedule lives in
 * the database (not in process memory) so that any Medusa instance can pick up where another left off:
 * `next_check_at` is the next time a check is due; `started_at` anchors the backoff; `state` ends as `final` (the
 * gateway gave a final status and Medusa reflects it) or `flagged` (an hour passed without a final status).
 */
import { model } from "@medusajs/framework/utils"

export const RECONCILIATION_STATES = ["pending", "final", "flagged"] as const

export const PaynetEasyReconciliation = model
  .define("payneteasy_reconciliation", {
    id: model.id({ prefix: "pnerc" }).primaryKey(),
    session_id: model.text(),
    provider_id: model.text(),
    target: model.text().default(""),
    payment_id: model.text().nullable(),
    state: model.enum([...RECONCILIATION_STATES]).default("pending"),
    started_at: model.dateTime(),
    next_check_at: model.dateTime(),
    last_checked_at: model.dateTime().nullable(),
    checks: model.number().default(0),
    last_status: model.text().nullable(),
    note: model.text().nullable(),
  })
  .indexes([
    { name: "IDX_payneteasy_reconciliation_target_unique", on: ["session_id", "target"], unique: true },
    { name: "IDX_payneteasy_reconciliation_due", on: ["state", "next_check_at"] },
  ])

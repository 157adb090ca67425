import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * - Callback log: the event key gains `event_key` ("<amount>|<gateway transaction id>"), so a second partial return /
 *   chargeback with the same status is a new row, not a duplicate; existing rows get theirs from the stored columns
 *   (no duplicates can arise: the old key was stricter). Outcome `flagged` added.
 * - Reconciliation: rows can watch a Payment's ledger entry (`target`, `payment_id`); unique per (session, target).
 */
export class Migration20261121093000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_callback" add column if not exists "event_key" text not null default '';`);
    this.addSql(`update "payneteasy_callback" set "event_key" = coalesce("amount", '') || '|' || coalesce(nullif(trim("params"->>'serial-number'), ''), nullif(trim("params"->>'processor-tx-id'), ''), '');`);
    this.addSql(`drop index if exists "IDX_payneteasy_callback_event_unique";`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_callback_event_key_unique" ON "payneteasy_callback" ("source", "orderid", "client_orderid", "type", "status", "event_key") WHERE deleted_at IS NULL;`);
    this.addSql(`alter table if exists "payneteasy_callback" drop constraint if exists "payneteasy_callback_outcome_check";`);
    this.addSql(`alter table if exists "payneteasy_callback" add constraint "payneteasy_callback_outcome_check" check("outcome" in ('received', 'processed', 'ignored', 'failed', 'flagged'));`);

    this.addSql(`alter table if exists "payneteasy_reconciliation" add column if not exists "target" text not null default '', add column if not exists "payment_id" text null;`);
    this.addSql(`drop index if exists "IDX_payneteasy_reconciliation_session_unique";`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_reconciliation_target_unique" ON "payneteasy_reconciliation" ("session_id", "target") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_payneteasy_reconciliation_target_unique";`);
    this.addSql(`delete from "payneteasy_reconciliation" where "target" <> '';`);
    this.addSql(`alter table if exists "payneteasy_reconciliation" drop column if exists "target", drop column if exists "payment_id";`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_reconciliation_session_unique" ON "payneteasy_reconciliation" ("session_id") WHERE deleted_at IS NULL;`);

    this.addSql(`alter table if exists "payneteasy_callback" drop constraint if exists "payneteasy_callback_outcome_check";`);
    this.addSql(`update "payneteasy_callback" set "outcome" = 'failed' where "outcome" = 'flagged';`);
    this.addSql(`alter table if exists "payneteasy_callback" add constraint "payneteasy_callback_outcome_check" check("outcome" in ('received', 'processed', 'ignored', 'failed'));`);
    this.addSql(`drop index if exists "IDX_payneteasy_callback_event_key_unique";`);
    // The old, coarser key: keep the first of the rows it would now see as duplicates.
    this.addSql(`delete from "payneteasy_callback" a using "payneteasy_callback" b where a."source" = b."source" and a."orderid" = b."orderid" and a."client_orderid" = b."client_orderid" and a."type" = b."type" and a."status" = b."status" and a."deleted_at" is null and b."deleted_at" is null and (a."received_at", a."id") > (b."received_at", b."id");`);
    this.addSql(`alter table if exists "payneteasy_callback" drop column if exists "event_key";`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_callback_event_unique" ON "payneteasy_callback" ("source", "orderid", "client_orderid", "type", "status") WHERE deleted_at IS NULL;`);
  }

}

import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The callback log's reads that are not by id or by event key, indexed so their cost stays flat as the log grows to
 * millions of rows (bench "growth: …"): the reconciliation tick's stale callbacks (outcome received / failed, oldest
 * first) and the attention queue's flagged / failed callbacks (newest first) read (outcome, received_at); the queue's
 * chargebacks (`type ILIKE '%chargeback%'`, which no plain index serves) read a partial index of just those rows.
 * Both were sequential scans of the whole log (models/callback-log.ts).
 */
export class Migration20261125210500 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_callback_outcome_received_at" ON "payneteasy_callback" (outcome, received_at) WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_callback_chargeback_received_at" ON "payneteasy_callback" (received_at) WHERE type ILIKE '%chargeback%' AND deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`DROP INDEX IF EXISTS "IDX_payneteasy_callback_outcome_received_at";`);
    this.addSql(`DROP INDEX IF EXISTS "IDX_payneteasy_callback_chargeback_received_at";`);
  }

}

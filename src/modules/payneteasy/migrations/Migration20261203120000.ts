import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The attention queue's disputes (issue 51): besides chargebacks, retrieval requests, fraud markers, second chargebacks
 * and chargeback reversals. Every dispute spelling has "chargeback", "retrieval" or "fraud" in it (gateway/disputes.ts),
 * and the queue reads `type ILIKE '%chargeback%' OR … '%retrieval%' OR … '%fraud%'`: a partial index of just those rows
 * replaces the chargeback-only one (Migration20261125210500), so the read stays flat as the log grows.
 */
export class Migration20261203120000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_callback_dispute_received_at" ON "payneteasy_callback" (received_at) WHERE (type ILIKE '%chargeback%' OR type ILIKE '%retrieval%' OR type ILIKE '%fraud%') AND deleted_at IS NULL;`);
    this.addSql(`DROP INDEX IF EXISTS "IDX_payneteasy_callback_chargeback_received_at";`);
  }

  override async down(): Promise<void> {
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_callback_chargeback_received_at" ON "payneteasy_callback" (received_at) WHERE type ILIKE '%chargeback%' AND deleted_at IS NULL;`);
    this.addSql(`DROP INDEX IF EXISTS "IDX_payneteasy_callback_dispute_received_at";`);
  }

}

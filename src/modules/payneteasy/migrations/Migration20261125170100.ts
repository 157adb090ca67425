import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261125170100 extends Migration {

  override async up(): Promise<void> {
    // At most one unfinished (pending) rebill per order, whatever amount or card it names (issue 32, part 2).
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_rebill_one_pending_per_order" ON "payneteasy_rebill" ("order_id") WHERE state = 'pending' AND deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_payneteasy_rebill_one_pending_per_order";`);
  }

}

import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** A cancelled recurring payment records what the gateway's schedule did (models/recurring-payment.ts `gateway_cancel`). */
export class Migration20261125171500 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_recurring_payment" add column if not exists "gateway_cancel" text check ("gateway_cancel" in ('pending', 'stopped', 'refused', 'unknown')) null, add column if not exists "gateway_cancel_reason" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_recurring_payment" drop column if exists "gateway_cancel", drop column if exists "gateway_cancel_reason";`);
  }

}

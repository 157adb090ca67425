import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * A past-due subscription's "Retry the charge" is a rebill of the subscription's card reference (models/rebill.ts):
 * the rebill record gains the subscription it retries, the make-rebill's client_orderid and the gateway's order id;
 * such a row names no saved card, so `card_id` may be null.
 */
export class Migration20261128040000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_rebill" alter column "card_id" drop not null;`);
    this.addSql(`alter table if exists "payneteasy_rebill" add column if not exists "recurring_payment_id" text null, add column if not exists "client_orderid" text null, add column if not exists "gateway_order_id" text null;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_rebill_recurring_payment" ON "payneteasy_rebill" ("recurring_payment_id") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`DROP INDEX IF EXISTS "IDX_payneteasy_rebill_recurring_payment";`);
    this.addSql(`alter table if exists "payneteasy_rebill" drop column if exists "recurring_payment_id", drop column if exists "client_orderid", drop column if exists "gateway_order_id";`);
    this.addSql(`alter table if exists "payneteasy_rebill" alter column "card_id" set not null;`);
  }

}

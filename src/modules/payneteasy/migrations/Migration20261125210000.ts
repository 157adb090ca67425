import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** A recurring payment whose renewal the gateway declined is `past_due` (models/recurring-payment.ts), not `active`. */
export class Migration20261125210000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_recurring_payment" drop constraint if exists "payneteasy_recurring_payment_status_check";`);
    this.addSql(`alter table if exists "payneteasy_recurring_payment" add constraint "payneteasy_recurring_payment_status_check" check ("status" in ('pending', 'active', 'not_set_up', 'failed', 'needs_attention', 'past_due', 'cancelled'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`update "payneteasy_recurring_payment" set "status" = 'active' where "status" = 'past_due';`);
    this.addSql(`alter table if exists "payneteasy_recurring_payment" drop constraint if exists "payneteasy_recurring_payment_status_check";`);
    this.addSql(`alter table if exists "payneteasy_recurring_payment" add constraint "payneteasy_recurring_payment_status_check" check ("status" in ('pending', 'active', 'not_set_up', 'failed', 'needs_attention', 'cancelled'));`);
  }

}

import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261123180300 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_recurring_payment" add column if not exists "next_check_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_recurring_payment" drop column if exists "next_check_at";`);
  }

}

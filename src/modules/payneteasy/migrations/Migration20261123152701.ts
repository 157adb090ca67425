import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261123152701 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_recurring_payment" drop constraint if exists "payneteasy_recurring_payment_schedule_unique";`);
    this.addSql(`alter table if exists "payneteasy_recurring_charge" drop constraint if exists "payneteasy_recurring_charge_unique";`);
    this.addSql(`create table if not exists "payneteasy_recurring_charge" ("id" text not null, "recurring_payment_row_id" text not null, "gateway_order_id" text not null, "client_orderid" text not null, "status" text not null, "amount" text not null, "currency_code" text not null, "error_code" text null, "error_message" text null, "renewal_order_id" text null, "payment_token" text null, "note" text null, "charged_at" timestamptz not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "payneteasy_recurring_charge_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_recurring_charge_deleted_at" ON "payneteasy_recurring_charge" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_recurring_charge_unique" ON "payneteasy_recurring_charge" ("recurring_payment_row_id", "gateway_order_id") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "payneteasy_recurring_payment" ("id" text not null, "order_id" text not null, "customer_id" text null, "provider_id" text null, "status" text check ("status" in ('pending', 'active', 'not_set_up', 'failed', 'needs_attention', 'cancelled')) not null default 'pending', "reason" text null, "period" text check ("period" in ('day', 'week', 'month', 'year')) not null, "interval" integer not null, "amount" text not null, "currency_code" text not null, "recurring_payment_id" text null, "card_ref_id" text null, "card_brand" text null, "card_last4" text null, "items" jsonb not null, "includes_shipping" boolean not null default false, "attempts" integer not null default 0, "next_charge_at" timestamptz null, "cancelled_at" timestamptz null, "cancelled_by" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "payneteasy_recurring_payment_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_recurring_payment_deleted_at" ON "payneteasy_recurring_payment" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_recurring_payment_schedule_unique" ON "payneteasy_recurring_payment" ("order_id", "period", "interval") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_recurring_payment_customer" ON "payneteasy_recurring_payment" ("customer_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_recurring_payment_gateway_id" ON "payneteasy_recurring_payment" ("recurring_payment_id") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "payneteasy_recurring_charge" cascade;`);

    this.addSql(`drop table if exists "payneteasy_recurring_payment" cascade;`);
  }

}

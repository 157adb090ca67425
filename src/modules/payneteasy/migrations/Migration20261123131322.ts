import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261123131322 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_saved_card" drop constraint if exists "payneteasy_saved_card_ref_unique";`);
    this.addSql(`create table if not exists "payneteasy_saved_card" ("id" text not null, "customer_id" text not null, "provider_id" text not null, "state" text check ("state" in ('verifying', 'active')) not null default 'active', "card_ref_id" text null, "card_ref_version" text null, "brand" text null, "bin" text null, "last4" text null, "exp_month" text null, "exp_year" text null, "holder" text null, "source" text not null, "source_order_id" text null, "source_session_id" text null, "source_gateway_order_id" text null, "verification_client_orderid" text null, "last_used_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "payneteasy_saved_card_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_saved_card_deleted_at" ON "payneteasy_saved_card" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_saved_card_customer" ON "payneteasy_saved_card" ("customer_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_saved_card_ref_unique" ON "payneteasy_saved_card" ("customer_id", "provider_id", "card_ref_id") WHERE card_ref_id IS NOT NULL AND deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "payneteasy_saved_card" cascade;`);
  }

}

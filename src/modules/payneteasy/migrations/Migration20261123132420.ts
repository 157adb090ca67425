import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261123132420 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_rebill" drop constraint if exists "payneteasy_rebill_key_unique";`);
    this.addSql(`create table if not exists "payneteasy_rebill" ("id" text not null, "order_id" text not null, "card_id" text not null, "customer_id" text not null, "idempotency_key" text not null, "amount" text not null, "currency_code" text not null, "state" text check ("state" in ('pending', 'succeeded', 'failed')) not null default 'pending', "payment_collection_id" text null, "session_id" text null, "payment_id" text null, "gateway_status" text null, "error_message" text null, "requested_by" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "payneteasy_rebill_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_rebill_deleted_at" ON "payneteasy_rebill" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_rebill_order" ON "payneteasy_rebill" ("order_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_rebill_key_unique" ON "payneteasy_rebill" ("idempotency_key") WHERE state <> 'failed' AND deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "payneteasy_rebill" cascade;`);
  }

}

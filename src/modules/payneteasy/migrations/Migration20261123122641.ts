import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261123122641 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_payout" drop constraint if exists "payneteasy_payout_client_orderid_unique";`);
    this.addSql(`alter table if exists "payneteasy_payout" drop constraint if exists "payneteasy_payout_confirm_key_unique";`);
    this.addSql(`alter table if exists "payneteasy_payout" drop constraint if exists "payneteasy_payout_idempotency_key_unique";`);
    this.addSql(`create table if not exists "payneteasy_payout" ("id" text not null, "provider_id" text not null, "method" text check ("method" in ('single', 'two_step', 'form')) not null, "status" text check ("status" in ('pending', 'form_issued', 'checking', 'checked', 'check_declined', 'processing', 'approved', 'declined', 'error', 'filtered', 'failed')) not null default 'pending', "amount" text not null, "currency_code" text not null, "destination_type" text check ("destination_type" in ('card', 'saved_card', 'bank', 'wallet', 'phone')) null, "destination_summary" text null, "recipient" text null, "purpose" text null, "client_orderid" text not null, "gateway_order_id" text null, "check_serial" text null, "pay_serial" text null, "form_url" text null, "error_code" text null, "error_message" text null, "idempotency_key" text not null, "request_hash" text not null, "confirm_idempotency_key" text null, "created_by" text null, "confirmed_by" text null, "confirmed_at" timestamptz null, "finished_at" timestamptz null, "next_check_at" timestamptz null, "checks" integer not null default 0, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "payneteasy_payout_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_payout_deleted_at" ON "payneteasy_payout" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_payout_idempotency_key_unique" ON "payneteasy_payout" ("idempotency_key") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_payout_confirm_key_unique" ON "payneteasy_payout" ("confirm_idempotency_key") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_payout_client_orderid_unique" ON "payneteasy_payout" ("client_orderid") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_payout_status" ON "payneteasy_payout" ("status", "next_check_at") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "payneteasy_payout_history" ("id" text not null, "payout_id" text not null, "at" timestamptz not null, "actor" text not null, "event" text not null, "from_status" text null, "to_status" text not null, "gateway" jsonb null, "note" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "payneteasy_payout_history_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_payout_history_deleted_at" ON "payneteasy_payout_history" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_payout_history_payout_id" ON "payneteasy_payout_history" ("payout_id", "at") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "payneteasy_payout" cascade;`);

    this.addSql(`drop table if exists "payneteasy_payout_history" cascade;`);
  }

}

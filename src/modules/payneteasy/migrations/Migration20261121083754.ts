import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261121083754 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_reconciliation" drop constraint if exists "payneteasy_reconciliation_session_unique";`);
    this.addSql(`alter table if exists "payneteasy_callback" drop constraint if exists "payneteasy_callback_event_unique";`);
    this.addSql(`create table if not exists "payneteasy_callback" ("id" text not null, "source" text check ("source" in ('callback', 'return', 'reconcile')) not null default 'callback', "provider_id" text not null, "session_id" text null, "orderid" text not null, "client_orderid" text not null, "type" text not null, "status" text not null, "amount" text null, "currency" text null, "error_code" text null, "error_message" text null, "action" text null, "params" jsonb not null, "outcome" text check ("outcome" in ('received', 'processed', 'ignored', 'failed')) not null default 'received', "outcome_detail" text null, "received_at" timestamptz not null, "processed_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "payneteasy_callback_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_callback_deleted_at" ON "payneteasy_callback" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_callback_event_unique" ON "payneteasy_callback" ("source", "orderid", "client_orderid", "type", "status") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_callback_session_id" ON "payneteasy_callback" ("session_id") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "payneteasy_reconciliation" ("id" text not null, "session_id" text not null, "provider_id" text not null, "state" text check ("state" in ('pending', 'final', 'flagged')) not null default 'pending', "started_at" timestamptz not null, "next_check_at" timestamptz not null, "last_checked_at" timestamptz null, "checks" integer not null default 0, "last_status" text null, "note" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "payneteasy_reconciliation_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_reconciliation_deleted_at" ON "payneteasy_reconciliation" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_reconciliation_session_unique" ON "payneteasy_reconciliation" ("session_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_reconciliation_due" ON "payneteasy_reconciliation" ("state", "next_check_at") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "payneteasy_callback" cascade;`);

    this.addSql(`drop table if exists "payneteasy_reconciliation" cascade;`);
  }

}

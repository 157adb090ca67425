import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261123122625 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_attention_handled" drop constraint if exists "payneteasy_attention_handled_item_unique";`);
    this.addSql(`create table if not exists "payneteasy_attention_handled" ("id" text not null, "item_id" text not null, "handled_by" text not null, "handled_at" timestamptz not null, "note" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "payneteasy_attention_handled_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_attention_handled_deleted_at" ON "payneteasy_attention_handled" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_attention_handled_item_unique" ON "payneteasy_attention_handled" ("item_id") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "payneteasy_status_check" ("id" text not null, "session_id" text not null, "provider_id" text not null, "orderid" text not null, "client_orderid" text not null, "serial_number" text null, "transaction_type" text null, "status" text not null, "amount" text null, "currency" text null, "error_code" text null, "error_message" text null, "checked_at" timestamptz not null, "checked_by" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "payneteasy_status_check_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_status_check_deleted_at" ON "payneteasy_status_check" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_status_check_session" ON "payneteasy_status_check" ("session_id", "checked_at") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "payneteasy_attention_handled" cascade;`);

    this.addSql(`drop table if exists "payneteasy_status_check" cascade;`);
  }

}

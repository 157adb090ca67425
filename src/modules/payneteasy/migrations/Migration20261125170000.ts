import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** The saved-card charge intent (models/card-charge.ts): one live charge per payment collection. */
export class Migration20261125170000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table if not exists "payneteasy_card_charge" ("id" text not null, "payment_collection_id" text not null, "session_id" text not null, "client_orderid" text not null, "card_id" text not null, "customer_id" text not null, "amount" text not null, "currency" text not null, "off_session" boolean not null default false, "state" text check ("state" in ('sending', 'pending', 'approved', 'declined', 'not_sent')) not null default 'sending', "gateway_order_id" text null, "gateway_status" text null, "error_message" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "payneteasy_card_charge_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_card_charge_deleted_at" ON "payneteasy_card_charge" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_payneteasy_card_charge_session" ON "payneteasy_card_charge" ("session_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_card_charge_client_orderid_unique" ON "payneteasy_card_charge" ("client_orderid") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payneteasy_card_charge_live_unique" ON "payneteasy_card_charge" ("payment_collection_id") WHERE state IN ('sending', 'pending', 'approved') AND deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "payneteasy_card_charge" cascade;`);
  }

}

import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The payout audit trail is append-only at the database level: a trigger refuses every UPDATE and DELETE on
 * `payneteasy_payout_history` (the service already only appends; this holds for anything else that reaches the
 * table: another module, a script, a person with psql). INSERT is untouched. TRUNCATE is a table-level operation
 * outside row triggers (it is what a test database reset uses); revoking it is a matter of database grants.
 * No model change: written by hand in the generated migrations' form, so `plugin:db:generate` leaves it alone.
 */
export class Migration20261123160000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create or replace function "payneteasy_payout_history_append_only"() returns trigger language plpgsql as $$
begin
  raise exception 'payneteasy_payout_history is append-only: % refused', tg_op using errcode = 'restrict_violation';
end;
$$;`);
    this.addSql(`drop trigger if exists "payneteasy_payout_history_append_only" on "payneteasy_payout_history";`);
    this.addSql(`create trigger "payneteasy_payout_history_append_only" before update or delete on "payneteasy_payout_history" for each row execute function "payneteasy_payout_history_append_only"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "payneteasy_payout_history_append_only" on "payneteasy_payout_history";`);
    this.addSql(`drop function if exists "payneteasy_payout_history_append_only"();`);
  }

}

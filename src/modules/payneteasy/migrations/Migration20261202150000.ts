import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Eligibility first (issue 51): a card payout asks PAN eligibility before its money request. The payout gains the
 * statuses `eligibility_checking` and `ineligible`, what eligibility said (`eligibility`), and the saved card it goes
 * to (`saved_card_id`, so a check settled later by callback or reconciliation can still send it).
 */
export class Migration20261202150000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_payout" drop constraint if exists "payneteasy_payout_status_check";`);
    this.addSql(`alter table if exists "payneteasy_payout" add constraint "payneteasy_payout_status_check" check ("status" in ('pending', 'form_issued', 'checking', 'checked', 'check_declined', 'processing', 'approved', 'declined', 'error', 'filtered', 'failed', 'eligibility_checking', 'ineligible'));`);
    this.addSql(`alter table if exists "payneteasy_payout" add column if not exists "eligibility" text check ("eligibility" in ('checking', 'eligible', 'ineligible', 'skipped')) null, add column if not exists "saved_card_id" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "payneteasy_payout" drop column if exists "eligibility", drop column if exists "saved_card_id";`);
    this.addSql(`alter table if exists "payneteasy_payout" drop constraint if exists "payneteasy_payout_status_check";`);
    this.addSql(`alter table if exists "payneteasy_payout" add constraint "payneteasy_payout_status_check" check ("status" in ('pending', 'form_issued', 'checking', 'checked', 'check_declined', 'processing', 'approved', 'declined', 'error', 'filtered', 'failed'));`);
  }

}

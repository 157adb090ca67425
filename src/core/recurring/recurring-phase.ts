/**
 * What each recurring payment status allows, written once (issue 54): whether the gateway's schedule is charging it
 * (reconciliation watches it for an overdue charge; a charge moves its standing between active and past due) and
 * whether a person may cancel it. Every status of the model (modules/payneteasy/models/recurring-payment.ts) has its
 * row, so a new one does not compile until it is placed. A pure rule (no @medusajs import): the dashboard reads it too.
 */
import type { RECURRING_STATUSES } from "../../modules/payneteasy/models/recurring-payment"

export type RecurringStatus = (typeof RECURRING_STATUSES)[number]

type Allows = { charging: boolean; cancellable: boolean }

export const RECURRING_STATUS_ALLOWS = {
  pending: { charging: false, cancellable: false },
  active: { charging: true, cancellable: true },
  not_set_up: { charging: false, cancellable: false },
  failed: { charging: false, cancellable: false },
  // the gateway's schedule may still run, but a person checks it first (a lost reply, an overdue charge)
  needs_attention: { charging: false, cancellable: true },
  past_due: { charging: true, cancellable: true },
  // cancelling again only retries the gateway's stop (workflows/payneteasy/recurring/cancel.ts)
  cancelled: { charging: false, cancellable: false },
} as const satisfies Record<RecurringStatus, Allows>

const ALL = Object.keys(RECURRING_STATUS_ALLOWS) as RecurringStatus[]
const CHARGING = new Set<string>(ALL.filter((s) => RECURRING_STATUS_ALLOWS[s].charging))
const CANCELLABLE = new Set<string>(ALL.filter((s) => RECURRING_STATUS_ALLOWS[s].cancellable))

/** The statuses whose charges the gateway's schedule makes (for a query over recurring payments). */
export const CHARGING_RECURRING_STATUSES: readonly RecurringStatus[] = ALL.filter((s) => CHARGING.has(s))

/** The gateway's schedule charges it: active, or past due after a declined renewal. */
export const isCharging = (status: string | null | undefined): boolean => CHARGING.has(status ?? "")

/** A person may cancel it (a cancelled one only to retry the gateway's stop). */
export const isCancellable = (status: string | null | undefined): boolean => CANCELLABLE.has(status ?? "")

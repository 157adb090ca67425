/**
 * Where each payout status stands, written once (issue 54): which statuses are final, which are polled, which are a
 * gateway refusal. Every status of the model (modules/payneteasy/models/payout.ts PAYOUT_STATUSES) has its row, so a
 * new one does not compile until it is placed. A pure rule (no @medusajs import): the dashboard reads it too.
 */
import type { PAYOUT_STATUSES } from "../../modules/payneteasy/models/payout"

export type PayoutStatus = (typeof PAYOUT_STATUSES)[number]

/**
 * - open: not decided; the reconciliation tick asks STATUS on its backoff (reconcile-payouts.ts)
 * - confirm: an approved two-step check waiting for a person's confirm (not polled; not final)
 * - paid: the gateway approved the payout
 * - refused: the gateway's own final no (its reason is in the reply: error code and message)
 * - failed: ended here without a gateway decline to read (never sent, refused before sending, an ineligible card)
 */
export type PayoutPhase = "open" | "confirm" | "paid" | "refused" | "failed"

export const PAYOUT_STATUS_PHASE = {
  pending: "open",
  eligibility_checking: "open",
  form_issued: "open",
  checking: "open",
  processing: "open",
  checked: "confirm",
  approved: "paid",
  declined: "refused",
  error: "refused",
  filtered: "refused",
  check_declined: "refused",
  failed: "failed",
  ineligible: "failed",
} as const satisfies Record<PayoutStatus, PayoutPhase>

const statusesIn = (...phases: PayoutPhase[]): PayoutStatus[] =>
  (Object.keys(PAYOUT_STATUS_PHASE) as PayoutStatus[]).filter((s) => phases.includes(PAYOUT_STATUS_PHASE[s]))

const FINAL = new Set<string>(statusesIn("paid", "refused", "failed"))

/** The statuses reconciliation polls. */
export const OPEN_PAYOUT_STATUSES: readonly PayoutStatus[] = statusesIn("open")

/** Nothing more will happen to the payout (any string: the dashboard asks with what the API gave it). */
export const isFinalPayout = (s: string): boolean => FINAL.has(s)

/** The gateway said no: declined, error, filtered, or a declined two-step check. */
export const isRefusedPayout = (s: PayoutStatus): boolean => PAYOUT_STATUS_PHASE[s] === "refused"

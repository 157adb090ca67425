/**
 * A payment collection's totals and status from its sessions, captures and refunds: what Medusa's payment module
 * writes after every capture and refund (`maybeUpdatePaymentCollection_`, not public), written again by the plugin when
 * it takes back a Capture or Refund the gateway declined after Medusa had booked it (reconciliation,
 * workflows/payneteasy/steps/take-back-medusa-record.ts). Medusa's rule, in minor units (integer arithmetic, ISO 4217
 * exponent, the half-up rounding of its own guards):
 *   no session → not_paid; sessions → awaiting; authorized sessions → authorized when they cover the amount, else
 *   partially_authorized; captures covering the amount → completed.
 */
import type { BigNumberInput } from "@medusajs/framework/types"
import { fromMinorUnits } from "../../gateway/money"
import { toMinor } from "./amounts"

export type CollectionStatus = "not_paid" | "awaiting" | "authorized" | "partially_authorized" | "completed"

export interface CollectionFigures {
  amount: BigNumberInput
  currency: string
  sessions: Array<{ status: string; amount: BigNumberInput }>
  captures: BigNumberInput[]
  refunds: BigNumberInput[]
}

export interface CollectionTotals {
  status: CollectionStatus
  authorized_amount: string
  captured_amount: string
  refunded_amount: string
  /** When the status is completed: Medusa stamps completed_at; otherwise the stamp is cleared. */
  completed: boolean
}

export function collectionTotals(f: CollectionFigures): CollectionTotals {
  const minor = (a: BigNumberInput) => toMinor(a, f.currency)
  const sum = (list: BigNumberInput[]) => list.reduce<bigint>((s, a) => s + minor(a), 0n)
  const amount = minor(f.amount)
  const authorized = sum(f.sessions.filter((s) => s.status === "authorized").map((s) => s.amount))
  const captured = sum(f.captures)
  const refunded = sum(f.refunds)
  let status: CollectionStatus = f.sessions.length === 0 ? "not_paid" : "awaiting"
  if (authorized > 0n) status = authorized >= amount ? "authorized" : "partially_authorized"
  const completed = captured >= amount
  if (completed) status = "completed"
  const text = (m: bigint) => fromMinorUnits(m, f.currency)
  return { status, authorized_amount: text(authorized), captured_amount: text(captured), refunded_amount: text(refunded), completed }
}

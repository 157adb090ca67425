/**
 * Payout destinations: the gateway fields for each kind, the masked summary we may store, and an in-process vault
 * that carries the full destination from the route to the step that sends it.
 *
 * Why a vault: Medusa's workflow engine writes a workflow's input to the `workflow_execution` table when it starts
 * (and deletes it when done), so a card or account number passed as workflow input would touch the database. The
 * route puts the validated destination here under a random one-time token, the workflow input carries only the
 * token, and the send step takes it out (and it is gone). Entries expire after a minute if never taken.
 */
import { randomBytes } from "node:crypto"
import { maskPan } from "../../gateway/scrub"
import type { PayoutDestinationInput } from "./payout-request"

export type PayoutMethod = "single" | "two_step" | "form"

/** A destination ready to send: a saved card is resolved to its card reference (saved-card-destination.ts) first. */
export type SendableDestination = Exclude<PayoutDestinationInput, { type: "saved_card" }> | { type: "card_ref"; card_ref_id: string }

const last4 = (v: string) => `****${v.slice(-4)}`

/** What we keep: never a full card or account number (a saved card's summary comes from its row). */
export function destinationSummary(d: Exclude<PayoutDestinationInput, { type: "saved_card" }>): string {
  switch (d.type) {
    case "card":
      return maskPan(d.card_number).replace(/^(\d{6})\*+(\d{4})$/, "$1******$2")
    case "bank":
      return `${d.bank_name} / ${d.bank_branch} / ${last4(d.account_number)}`
    case "wallet":
      return `wallet ${d.wallet_id.length > 6 ? last4(d.wallet_id) : "****"}`
    case "phone":
      return `phone ${last4(d.phone)}`
  }
}

/**
 * The gateway fields for a destination. The v4 payout-check names the card `destination-card-no` (the seed's
 * transfer field); the v2 payout uses the operation table's `credit_card_number`. A card reference goes as
 * `destination-card-ref-id` (both operations list it).
 */
export function destinationFields(d: SendableDestination, method: PayoutMethod, recipient?: string | null): Record<string, string> {
  const printedName: Record<string, string> = recipient ? { card_printed_name: recipient.slice(0, 128) } : {}
  switch (d.type) {
    case "card":
      return { [method === "two_step" ? "destination-card-no" : "credit_card_number"]: d.card_number, ...printedName }
    case "card_ref":
      return { "destination-card-ref-id": d.card_ref_id, ...printedName }
    case "bank":
      return { account_number: d.account_number, bank_name: d.bank_name, bank_branch: d.bank_branch }
    case "wallet":
      return { wallet_id: d.wallet_id }
    case "phone":
      return { phone: d.phone }
  }
}

const TTL_MS = 60_000
const vault = new Map<string, { destination: PayoutDestinationInput; expires: number }>()

/** Keeps the destination in memory for the workflow; returns the one-time token. */
export function depositDestination(destination: PayoutDestinationInput): string {
  const now = Date.now()
  for (const [k, v] of vault) if (v.expires < now) vault.delete(k)
  const token = randomBytes(18).toString("base64url")
  vault.set(token, { destination, expires: now + TTL_MS })
  return token
}

/** Takes the destination out (once). */
export function takeDestination(token: string | undefined | null): PayoutDestinationInput | undefined {
  if (!token) return undefined
  const entry = vault.get(token)
  vault.delete(token)
  return entry && entry.expires >= Date.now() ? entry.destination : undefined
}

/** Drops a deposited destination that will not be used (the request was answered from an earlier payout). */
export function discardDestination(token: string | undefined | null): void {
  if (token) vault.delete(token)
}

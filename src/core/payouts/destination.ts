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
import { payoutDestinationFields, type PayoutDestination, type RequestFields } from "../../gateway/requests"
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

/** The gateway fields for a destination (v4 payout-check and v2 payout name a card differently: the builder knows). */
export function destinationFields(d: SendableDestination, method: PayoutMethod, recipient?: string | null): RequestFields {
  return payoutDestinationFields(gatewayDestination(d), method === "two_step", recipient ?? undefined)
}

/** A destination as the gateway's payout builders take it (src/gateway/requests.ts spells the fields). */
export function gatewayDestination(d: SendableDestination): PayoutDestination {
  switch (d.type) {
    case "card":
      return { type: "card", cardNumber: d.card_number }
    case "card_ref":
      return { type: "card_ref", cardRefId: d.card_ref_id }
    case "bank":
      return { type: "bank", accountNumber: d.account_number, bankName: d.bank_name, bankBranch: d.bank_branch }
    case "wallet":
      return { type: "wallet", walletId: d.wallet_id }
    case "phone":
      return { type: "phone", phone: d.phone }
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

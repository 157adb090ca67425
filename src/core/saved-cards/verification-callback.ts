/**
 * A saved card's zero-amount verification callback (client_orderid = the `pnecard_…` row id), after the route has
 * verified it with the control key of the card's registration and recorded it once in the callback log
 * (core/callbacks/order-kinds.ts, accept.ts). The callback is only a trigger: the card is saved or dropped by STATUS, the
 * same way as when the customer lists their cards (add-card.ts `settleCardVerification`, under the card's lock).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import type { CallbackRow } from "../../modules/payneteasy/service"
import { settleCardVerification, type VerificationOutcome } from "../../workflows/payneteasy/saved-cards/add-card"

const DETAIL: Record<VerificationOutcome, string> = {
  saved: "card verified by STATUS and saved",
  dropped: "verification not approved by STATUS (or abandoned): the card row was dropped",
  pending: "STATUS not final yet: the card stays verifying (settled by a later callback or when the customer lists cards)",
  not_verifying: "the card was already saved or dropped: nothing to do",
}

/** Returns the callback-log outcome for the row. */
export async function settleCardVerificationCallback(
  container: MedusaContainer,
  row: CallbackRow
): Promise<{ outcome: "processed" | "ignored"; detail: string }> {
  const outcome = await settleCardVerification(container, row.client_orderid.trim())
  return {
    outcome: outcome === "not_verifying" ? "ignored" : "processed",
    detail: `card ${row.client_orderid.trim()} (callback said ${row.status}): ${DETAIL[outcome]}`,
  }
}

/**
 * A saved card's zero-amount verification callback (client_orderid = the `pnecard_…` row id), after the route has
 * verified it with the control key of the card's registration and recorded it once in the callback log
 * (core/callbacks/order-kinds.ts, accept.ts). The callback is only a trigger: the card is saved or dropped by STATUS, the
 * same way as when the customer lists their cards (`settleCardVerification` below, under the card's lock), which the
 * card list route (GET /store/payneteasy/cards) runs for the customer's pending verifications.
 *
 * - `settleCardVerification`: one `verifying` row, under a lock on the card: STATUS at the gateway; approved → the
 *   provider's savePaymentMethod (card reference + card info) and the row becomes `active`; declined / error /
 *   filtered → the row is deleted; still processing → left for the next look (a day at most, then dropped).
 * - `settleCardVerifications`: the same for all of a customer's `verifying` rows, when they list their cards — a
 *   safety net for a callback that never reached us.
 */
import type { MedusaContainer, PaymentCustomerDTO } from "@medusajs/framework/types"
import type { CallbackRow } from "../../modules/payneteasy/service"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { paynetEasyModule } from "../../modules/payneteasy"
import { isFinal, isNotFound } from "../connection"
import { cardsClient } from "../connection/cards-config"
import { statusFields } from "../../gateway/requests"
import { orderIdOf } from "../../gateway/replies"
import { LOCK_KEYS } from "../locks/lock-keys"

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

/** A verification nobody finished within a day is dropped without asking the gateway again. */
export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000

export type VerificationOutcome = "saved" | "dropped" | "pending" | "not_verifying"

/**
 * Settles one verification by STATUS (never by what a callback says), under a lock on the card, so the callback and a
 * card list arriving together settle it once. Throws when the gateway cannot be asked (the caller retries).
 */
export async function settleCardVerification(container: MedusaContainer, cardId: string): Promise<VerificationOutcome> {
  return container.resolve(Modules.LOCKING).execute(LOCK_KEYS.cardVerification(cardId), () => settleLocked(container, cardId), { timeout: 30 })
}

async function settleLocked(container: MedusaContainer, cardId: string): Promise<VerificationOutcome> {
  const service = paynetEasyModule(container)
  const [row] = await service.listPaynetEasySavedCards({ id: cardId, state: "verifying" }, { take: 1 })
  if (!row) return "not_verifying" // already saved, dropped or deleted
  if (Date.now() - new Date(row.created_at).getTime() > VERIFICATION_TTL_MS) {
    await service.softDeletePaynetEasySavedCards([row.id]) // abandoned: the hosted page was never completed
    return "dropped"
  }
  const client = cardsClient(container, row.provider_id)
  try {
    let status
    try {
      status = await client.request("STATUS", statusFields({ clientOrderId: row.id }))
    } catch (e) {
      if (isNotFound(e)) return "pending" // registered but not paid yet, or lost: nothing at the gateway to save
      throw e
    }
    if (!isFinal(status)) return "pending"
    if (status.status !== "approved") {
      await service.softDeletePaynetEasySavedCards([row.id])
      return "dropped"
    }
    const gatewayOrderId = orderIdOf(status)!
    const method = await container.resolve(Modules.PAYMENT).createPaymentMethods({
      provider_id: row.provider_id,
      data: { clientOrderId: row.id, orderId: gatewayOrderId },
      context: { customer: { id: row.customer_id } as PaymentCustomerDTO }, // the provider reads only the id
    })
    const card = { customer_id: row.customer_id, provider_id: row.provider_id, clientOrderId: row.id, gatewayOrderId }
    await activateCard(container, { card, ref: { card_ref_id: method.id, details: method.data }, row_id: row.id })
    return "saved"
  } finally {
    await client.close?.()
  }
}

/** Finishes the customer's pending verifications (see the header). Never throws for one bad row. */
export async function settleCardVerifications(container: MedusaContainer, customerId: string): Promise<void> {
  const service = paynetEasyModule(container)
  const rows = await service.listPaynetEasySavedCards({ customer_id: customerId, state: "verifying" })
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  for (const row of rows) {
    try {
      await settleCardVerification(container, row.id)
    } catch (e) {
      logger.warn(`PaynetEasy: card verification ${row.id} could not be settled yet: ${(e as Error).message}`)
    }
  }
}

async function activateCard(
  container: MedusaContainer,
  input: { card: any; ref: { card_ref_id: string; details: any }; row_id: string }
): Promise<void> {
  const { card_ref_version, ...details } = input.ref.details
  await paynetEasyModule(container).updatePaynetEasySavedCards({
    id: input.row_id, state: "active", card_ref_id: input.ref.card_ref_id, card_ref_version, ...details,
    source_gateway_order_id: input.card.gatewayOrderId,
  })
}

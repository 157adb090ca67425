/**
 * Adding a card without paying: a zero-amount account verification on the gateway's hosted page
 * (account-verification-form). The customer's details (email, phone, default billing address) describe the payer.
 *
 * - `startCardVerificationWorkflow`: a `verifying` card row (its id is the verification's client_orderid), then the
 *   hosted-page registration, sent once; a lost or refused registration deletes the row (compensation).
 * - `settleCardVerification`: one `verifying` row, under a lock on the card: STATUS at the gateway; approved → the
 *   provider's savePaymentMethod (card reference + card info) and the row becomes `active`; declined / error /
 *   filtered → the row is deleted; still processing → left for the next look (a day at most, then dropped). Run by
 *   the verification's server callback (process-callback.ts: verified with the key of the card's registration,
 *   de-duplicated in the callback log), so the card is saved when the gateway says so.
 * - `settleCardVerifications`: the same for all of a customer's `verifying` rows, when they list their cards — a
 *   safety net for a callback that never reached us.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { paynetEasyModule } from "../../../modules/payneteasy"
import { sendOnce, isFinal, isNotFound } from "../../../core/connection"
import { payerOf, type Payer } from "../../../core/checkout/payer"
import { accountVerificationFormFields, statusFields } from "../../../gateway/requests"
import { orderIdOf, redirectUrlOf } from "../../../gateway/replies"
import { cardsClient, cardsProviderId, cardsProviderOptions } from "../../../core/connection/cards-config"

export type StartVerificationInput = { customer_id: string; return_url?: string; ip?: string }

const customerPayerStep = createStep("payneteasy-verification-payer", async (input: StartVerificationInput, { container }) => {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "customer",
    fields: ["id", "email", "first_name", "last_name", "phone", "has_account", "addresses.*"],
    filters: { id: input.customer_id },
  })
  const customer = data[0] as any
  if (!customer?.has_account) throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Saved cards are for registered customers")
  const addresses = customer.addresses ?? []
  const billing = addresses.find((a: any) => a.is_default_billing) ?? addresses[0]
  try {
    return new StepResponse(payerOf(undefined, { ...customer, billing_address: billing ?? null }, input.ip))
  } catch (e) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      (e as Error).message.replace(/: send them.*$/, ": add a billing address with a phone number to your account first")
    )
  }
})

const createVerifyingRowStep = createStep(
  "payneteasy-create-verifying-card",
  async (input: { customer_id: string }, { container }) => {
    const providerId = cardsProviderId(container)
    const service = paynetEasyModule(container)
    const row = await service.createPaynetEasySavedCards({
      customer_id: input.customer_id, provider_id: providerId, state: "verifying", source: "verification",
    })
    await service.updatePaynetEasySavedCards({ id: row.id, verification_client_orderid: row.id })
    return new StepResponse({ id: row.id as string, provider_id: providerId }, row.id as string)
  },
  async (id: string | undefined, { container }) => {
    if (id) await paynetEasyModule(container).deletePaynetEasySavedCards([id])
  }
)

const registerVerificationStep = createStep(
  "payneteasy-register-verification",
  async (input: { row: { id: string; provider_id: string }; payer: Payer; return_url?: string }, { container }) => {
    const options = cardsProviderOptions(container, input.row.provider_id) as { backendUrl?: string; storefrontReturnUrl?: string }
    const backend = String(options.backendUrl ?? "").replace(/\/+$/, "")
    const client = cardsClient(container, input.row.provider_id)
    try {
      const fields = accountVerificationFormFields({
        clientOrderId: input.row.id,
        description: "Card verification",
        payer: input.payer,
        redirectUrl: input.return_url ?? options.storefrontReturnUrl ?? `${backend}/payneteasy/return`,
        callbackUrl: `${backend}/payneteasy/callback`,
      })
      const sent = await sendOnce(client, "ACCOUNT_VERIFICATION_FORM", fields, { clientOrderId: input.row.id })
      if (sent.kind !== "reply") {
        throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "PaynetEasy did not answer the card verification registration in time; please try again")
      }
      return new StepResponse({ redirectUrl: redirectUrlOf(sent.reply)!, card_id: input.row.id })
    } finally {
      await client.close?.()
    }
  }
)

export const startCardVerificationWorkflow = createWorkflow("payneteasy-start-card-verification", (input: StartVerificationInput) => {
  const payer = customerPayerStep(input)
  const row = createVerifyingRowStep({ customer_id: input.customer_id })
  const page = registerVerificationStep({ row, payer, return_url: input.return_url })
  return new WorkflowResponse(page)
})

/** A verification nobody finished within a day is dropped without asking the gateway again. */
export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000

export type VerificationOutcome = "saved" | "dropped" | "pending" | "not_verifying"

/**
 * Settles one verification by STATUS (never by what a callback says), under a lock on the card, so the callback and a
 * card list arriving together settle it once. Throws when the gateway cannot be asked (the caller retries).
 */
export async function settleCardVerification(container: MedusaContainer, cardId: string): Promise<VerificationOutcome> {
  return container.resolve(Modules.LOCKING).execute(`payneteasy:card-verification:${cardId}`, () => settleLocked(container, cardId), { timeout: 30 })
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
      context: { customer: { id: row.customer_id } } as any,
    })
    const card = { customer_id: row.customer_id, provider_id: row.provider_id, clientOrderId: row.id, gatewayOrderId }
    await activateCard(container, { card, ref: { card_ref_id: method.id, details: method.data as any }, row_id: row.id })
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

/**
 * Adding a card without paying: a zero-amount account verification on the gateway's hosted page
 * (account-verification-form). The customer's details (email, phone, default billing address) describe the payer.
 *
 * - `startCardVerificationWorkflow`: a `verifying` card row (its id is the verification's client_orderid), then the
 *   hosted-page registration, sent once; a lost or refused registration deletes the row (compensation).
 *
 * Settling a verification (STATUS decides: the card becomes `active`, or is dropped) lives in
 * core/saved-cards/verification-callback.ts, run by the verification's callback and when the customer lists cards.
 */
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { paynetEasyModule } from "../../../modules/payneteasy"
import { sendMoneyRequest } from "../../../core/connection"
import { payerOf, type Payer } from "../../../core/checkout/payer"
import { accountVerificationFormFields } from "../../../gateway/requests"
import { redirectUrlOf } from "../../../gateway/replies"
import { cardsClient, cardsProviderId, cardsProviderOptions } from "../../../core/connection/cards-config"
import { pluginCallbackUrl, pluginReturnUrl } from "../../../core/connection/plugin-urls"

export type StartVerificationInput = { customer_id: string; return_url?: string; ip?: string }

const customerPayerStep = createStep("payneteasy-verification-payer", async (input: StartVerificationInput, { container }) => {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "customer",
    fields: ["id", "email", "first_name", "last_name", "phone", "has_account", "addresses.*"],
    filters: { id: input.customer_id },
  })
  const customer = data[0]
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
        redirectUrl: input.return_url ?? options.storefrontReturnUrl ?? pluginReturnUrl(backend),
        callbackUrl: pluginCallbackUrl(backend),
      })
      // sent once (core/connection/money-request.ts); without its reply the page's address is lost: nobody can be
      // charged on it, so the registration fails and the shopper starts a new one (a new row, a new client order id)
      const sent = await sendMoneyRequest(client, { op: "ACCOUNT_VERIFICATION_FORM", fields, status: { clientOrderId: input.row.id } })
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

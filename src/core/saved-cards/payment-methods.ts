/**
 * Medusa's account-holder and payment-method verbs for PaynetEasy.
 *
 * The gateway has no customer object: the account holder is our own record of the Medusa customer (external id =
 * the customer id). A payment method is a saved card (models/saved-card.ts): savePaymentMethod turns an approved
 * gateway order into a card reference plus its displayable details (saved-cards.ts); listing and deleting read and
 * soft-delete our table. What leaves here as `data` is the masked card, never the card-ref-id — except the `id` of
 * savePaymentMethod, which Medusa hands back only to the backend workflow that stores it.
 */
import { MedusaError } from "@medusajs/framework/utils"
import type {
  CreateAccountHolderInput, CreateAccountHolderOutput, DeleteAccountHolderInput, DeleteAccountHolderOutput,
  DeletePaymentMethodInput, DeletePaymentMethodOutput, ListPaymentMethodsInput, ListPaymentMethodsOutput,
  SavePaymentMethodInput, SavePaymentMethodOutput,
} from "@medusajs/framework/types"
import type { ProviderContext } from "../checkout/context"
import { gatewayValue } from "../checkout/gateway-call"
import { activeCardsOf, publicCard, softDeleteCard } from "./records"
import { tokenizeCard } from "./card-gateway"

export function createAccountHolder(input: CreateAccountHolderInput): CreateAccountHolderOutput {
  const customerId = input.context?.customer?.id
  if (!customerId) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "PaynetEasy account holder: no customer in the context")
  }
  return { id: customerId, data: { customer_id: customerId } }
}

export function deleteAccountHolder(_input: DeleteAccountHolderInput): DeleteAccountHolderOutput {
  return {} // nothing exists at the gateway; the cards stay in our table (their owner decides about them)
}

function holderCustomerId(context: { account_holder?: { data?: Record<string, unknown> | null; external_id?: string } } | undefined): string {
  const holder = context?.account_holder
  const id = (holder?.data?.customer_id as string | undefined) ?? holder?.external_id
  if (!id) throw new MedusaError(MedusaError.Types.INVALID_DATA, "PaynetEasy: no account holder in the context")
  return id
}

/** `data`: { clientOrderId, orderId } of an approved gateway order. Returns the card reference and its details. */
export async function savePaymentMethod(ctx: ProviderContext, input: SavePaymentMethodInput): Promise<SavePaymentMethodOutput> {
  const clientOrderId = input.data?.clientOrderId
  const orderId = input.data?.orderId
  if (typeof clientOrderId !== "string" || typeof orderId !== "string" || !clientOrderId || !orderId) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "PaynetEasy savePaymentMethod needs data.clientOrderId and data.orderId of an approved payment")
  }
  const { card_ref_id, ...details } = await gatewayValue("CARDREF", () =>
    tokenizeCard(ctx.client, !!ctx.options.privateKey, { clientOrderId, orderId })
  )
  return { id: card_ref_id, data: details }
}

/**
 * The customer's saved cards, each `{ id, data }` with the shape Stripe's provider gives (a PaymentMethod: `object`,
 * `type: "card"`, `card: { brand, last4, exp_month, exp_year }`, `created` in Unix seconds) next to our own fields:
 * Medusa's subscription recipe and the engines built on it read that shape to pick a card, then create a session with
 * `data: { payment_method: id, off_session: true }` (saved-card-payment.ts).
 */
export async function listPaymentMethods(input: ListPaymentMethodsInput): Promise<ListPaymentMethodsOutput> {
  const rows = await activeCardsOf(holderCustomerId(input.context))
  const num = (v: string | null) => (v === null || !/^[0-9]+$/.test(v) ? null : Number(v))
  return rows.map((row) => ({
    id: row.id,
    data: {
      ...publicCard(row),
      object: "payment_method",
      type: "card",
      card: { brand: row.brand, last4: row.last4, exp_month: num(row.exp_month), exp_year: num(row.exp_year) },
      created: Math.floor(new Date(row.created_at).getTime() / 1000),
    },
  }))
}

export async function deletePaymentMethod(input: DeletePaymentMethodInput): Promise<DeletePaymentMethodOutput> {
  await softDeleteCard(holderCustomerId(input.context), input.data.id)
  return {}
}

/**
 * After a checkout: keep the card of an order's PaynetEasy payment when the shopper opted in (`data.save_card: true`
 * on the payment session) and the order belongs to a registered customer (`has_account`; guests never get a saved
 * card, whatever their storefront sends). Run by the `order.placed` subscriber.
 *
 * Steps: find the approved payment to save → the provider's savePaymentMethod through the payment module
 * (create-card-ref v4/v2 + get-card-info) → store the card row (compensation deletes it). Saving the same gateway
 * order twice is a no-op: the gateway answers the same card-ref-id, and the row is found by it.
 */
import type { PaymentCustomerDTO } from "@medusajs/framework/types"
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { PAYNETEASY_MODULE, paynetEasyModule } from "../../../modules/payneteasy"
import type { CardDetails } from "../../../core/saved-cards/card-gateway"

export type CardToSave = {
  customer_id: string
  provider_id: string
  order_id?: string
  session_id?: string
  clientOrderId: string
  gatewayOrderId: string
}

export const findCardToSaveStep = createStep("payneteasy-find-card-to-save", async (input: { order_id: string }, { container }) => {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "customer_id", "customer.has_account", "payment_collections.payments.id", "payment_collections.payments.provider_id",
      "payment_collections.payments.data", "payment_collections.payments.payment_session_id"],
    filters: { id: input.order_id },
  })
  const order = data[0]
  if (!order?.customer_id || order.customer?.has_account !== true) return new StepResponse(null)
  const payments = (order.payment_collections ?? []).flatMap((c: any) => c?.payments ?? [])
  const payment = payments.find((p: any) =>
    typeof p?.provider_id === "string" && p.provider_id.startsWith("pp_payneteasy") && p.data?.save_card === true &&
    !p.data?.card_id && p.data?.gatewayStatus === "approved" && typeof p.data?.orderId === "string" && typeof p.data?.clientOrderId === "string"
  )
  if (!payment) return new StepResponse(null)
  const found: CardToSave = {
    customer_id: order.customer_id, provider_id: payment.provider_id, order_id: order.id,
    session_id: payment.payment_session_id ?? payment.data.session_id, clientOrderId: payment.data.clientOrderId,
    gatewayOrderId: payment.data.orderId,
  }
  return new StepResponse(found)
})

/** The provider's savePaymentMethod: the card-ref-id and the card's displayable details (backend only). */
export const tokenizeCardStep = createStep("payneteasy-tokenize-card", async (input: CardToSave | null, { container }) => {
  if (!input) return new StepResponse(null)
  const payment = container.resolve(Modules.PAYMENT)
  const method = await payment.createPaymentMethods({
    provider_id: input.provider_id,
    data: { clientOrderId: input.clientOrderId, orderId: input.gatewayOrderId },
    context: { customer: { id: input.customer_id } as PaymentCustomerDTO }, // the provider reads only the id
  })
  return new StepResponse({ card_ref_id: method.id, details: method.data as CardDetails & { card_ref_version: string } })
})

export type StoreCardInput = {
  card: CardToSave | null
  ref: { card_ref_id: string; details: CardDetails & { card_ref_version: string } } | null
  source: "checkout"
}

export const storeSavedCardStep = createStep(
  "payneteasy-store-saved-card",
  async (input: StoreCardInput, { container }) => {
    if (!input.card || !input.ref) return new StepResponse(null, null)
    const service = paynetEasyModule(container)
    const [existing] = await service.listPaynetEasySavedCards(
      { customer_id: input.card.customer_id, provider_id: input.card.provider_id, card_ref_id: input.ref.card_ref_id, state: "active" },
      { take: 1 }
    )
    if (existing) return new StepResponse({ id: existing.id as string, created: false }, null)
    const { card_ref_version, ...details } = input.ref.details
    const fields = {
      customer_id: input.card.customer_id, provider_id: input.card.provider_id, state: "active" as const, card_ref_id: input.ref.card_ref_id,
      card_ref_version, ...details, source: input.source, source_order_id: input.card.order_id ?? null,
      source_session_id: input.card.session_id ?? null, source_gateway_order_id: input.card.gatewayOrderId,
    }
    const row = await service.createPaynetEasySavedCards(fields)
    return new StepResponse({ id: row.id as string, created: true }, row.id as string)
  },
  async (createdId: string | null | undefined, { container }) => {
    if (!createdId) return
    await paynetEasyModule(container).deletePaynetEasySavedCards([createdId])
  }
)

export const saveCardFromOrderWorkflow = createWorkflow("payneteasy-save-card-from-order", (input: { order_id: string }) => {
  const card = findCardToSaveStep(input)
  const ref = tokenizeCardStep(card)
  const saved = storeSavedCardStep({ card, ref, source: "checkout" })
  return new WorkflowResponse(saved)
})

/**
 * `order.placed` → keep the card when the customer asked for it at checkout (workflows/payneteasy/saved-cards/
 * save-card-from-order.ts). A failure here never touches the order: it is logged, and the customer can add the card
 * again from their account.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { saveCardFromOrderWorkflow } from "../workflows/payneteasy/saved-cards/save-card-from-order"
import { subscriberSpan } from "../core/telemetry/otel"

export default async function payneteasySaveCardHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  try {
    await subscriberSpan("order.placed", () => saveCardFromOrderWorkflow(container).run({ input: { order_id: event.data.id } }))
  } catch (e) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`PaynetEasy: could not save the card of order ${event.data.id}: ${(e as Error).message}`)
  }
}

export const config: SubscriberConfig = {
  event: "order.placed",
  context: { subscriberId: "payneteasy-save-card" },
}

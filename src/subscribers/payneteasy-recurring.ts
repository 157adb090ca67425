/**
 * `order.placed` → the gateway's recurring payments for the order's subscription items
 * (workflows/payneteasy/recurring/create-from-order.ts). Exactly once comes from the workflow (unique row per
 * schedule + the order's lock), so a redelivered event or a second instance is harmless. Retries are Medusa's own:
 * the set-up step's config (`maxRetries`, `retryInterval`) has the workflow engine run it again (the in-memory engine
 * with a timer, the Redis engine with a delayed job, so on any instance and across a restart), and when every retry is
 * spent the workflow's compensation leaves the rows `needs_attention` with the reason. This handler only starts the
 * workflow; it does not wait out the retries. Never touches the order itself: the order is placed whatever happens here.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { scrub } from "../gateway/scrub"
import { createRecurringFromOrderWorkflow } from "../workflows/payneteasy/recurring/create-from-order"
import { subscriberSpan } from "../core/telemetry/otel"

export default async function payneteasyRecurringHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  const { errors } = await subscriberSpan("order.placed", () =>
    createRecurringFromOrderWorkflow(container).run({ input: { order_id: event.data.id }, throwOnError: false }))
  for (const e of errors ?? []) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(
      `PaynetEasy: the recurring payment of order ${event.data.id} was not set up: ${scrub((e as { error?: { message?: string } })?.error?.message ?? String(e))}`)
  }
}

export const config: SubscriberConfig = {
  event: "order.placed",
  context: { subscriberId: "payneteasy-recurring" },
}

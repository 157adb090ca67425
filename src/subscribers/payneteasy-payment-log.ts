/**
 * `order.placed`, `payment.captured`, `payment.refunded` → one `info` line per money movement of a PaynetEasy payment,
 * carrying the payment's ids (core/checkout/movement-log.ts). Logging only: a failure to read the rows is a warning and
 * never touches the order or the payment.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { logMovement, type MovementEvent } from "../core/checkout/movement-log"
import { subscriberSpan } from "../core/telemetry/otel"

export default async function payneteasyPaymentLogHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  const name = event.name as MovementEvent
  try {
    await subscriberSpan(name, () => logMovement(container, name, event.data.id))
  } catch (e) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`PaynetEasy: could not log the ${name} movement of ${event.data.id}: ${(e as Error).message}`)
  }
}

export const config: SubscriberConfig = {
  event: ["order.placed", "payment.captured", "payment.refunded"],
  context: { subscriberId: "payneteasy-payment-log" },
}

/**
 * Processes recorded PaynetEasy callbacks (see workflows/payneteasy/process-callback.ts): confirms with STATUS through
 * the provider, creates the order / marks the failure / records later events, and writes the outcome to the log.
 * One event names up to 25 callbacks (core/callbacks/callback-queue.ts); they are processed one after the other,
 * each a span under this subscriber's (core/telemetry/otel.ts `subscriberSpan`), linked to the payment's request.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { CALLBACK_RECEIVED, processCallbacks } from "../workflows/payneteasy/process-callback"
import { callbackIdsOf, type CallbackReceived } from "../core/callbacks/callback-queue"
import { subscriberSpan } from "../core/telemetry/otel"

export default async function payneteasyCallbackHandler({ event, container }: SubscriberArgs<CallbackReceived>) {
  await subscriberSpan(CALLBACK_RECEIVED, () => processCallbacks(container, callbackIdsOf(event.data)))
}

export const config: SubscriberConfig = {
  event: CALLBACK_RECEIVED,
  context: { subscriberId: "payneteasy-callback-handler" },
}

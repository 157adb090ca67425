/**
 * Processes a recorded PaynetEasy callback (see workflows/payneteasy/process-callback.ts): confirms with STATUS through
 * the provider, creates the order / marks the failure / records later events, and writes the outcome to the log.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { CALLBACK_RECEIVED, processCallback } from "../workflows/payneteasy/process-callback"

export default async function payneteasyCallbackHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  await processCallback(container, event.data.id)
}

export const config: SubscriberConfig = {
  event: CALLBACK_RECEIVED,
  context: { subscriberId: "payneteasy-callback-handler" },
}

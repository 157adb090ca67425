/**
 * `order.placed` → the gateway's recurring payments for the order's subscription items
 * (workflows/payneteasy/recurring/create-from-order.ts). Exactly once comes from the workflow (unique row per
 * schedule + the order's lock), so a redelivered event or a second instance is harmless. A gateway that cannot be
 * reached is retried here with backoff (1 s, 4 s, 16 s); after that the rows stay visible in the admin with the reason.
 * Never touches the order itself: the order is placed whatever happens here.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { setTimeout as sleep } from "node:timers/promises"
import { scrub } from "../gateway/scrub"
import { createRecurringFromOrderWorkflow, service } from "../workflows/payneteasy/recurring/create-from-order"

const BACKOFF_MS = [1_000, 4_000, 16_000]

export default async function payneteasyRecurringHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  let last: unknown
  for (let attempt = 0; attempt <= BACKOFF_MS.length; attempt++) {
    try {
      await createRecurringFromOrderWorkflow(container).run({ input: { order_id: event.data.id } })
      return
    } catch (e) {
      last = e
      logger.warn(`PaynetEasy: setting up the recurring payment of order ${event.data.id} failed (attempt ${attempt + 1}): ${scrub((e as Error).message)}`)
      if (attempt < BACKOFF_MS.length) await sleep(BACKOFF_MS[attempt])
    }
  }
  const rows = await service(container).listPaynetEasyRecurringPayments({ order_id: event.data.id, status: "pending" })
  for (const r of rows) {
    await service(container).updatePaynetEasyRecurringPayments({
      id: r.id, status: "needs_attention",
      reason: `the gateway could not be reached after ${BACKOFF_MS.length + 1} attempts (${scrub((last as Error)?.message ?? "")}); a person must check and retry`,
    })
  }
}

export const config: SubscriberConfig = {
  event: "order.placed",
  context: { subscriberId: "payneteasy-recurring" },
}

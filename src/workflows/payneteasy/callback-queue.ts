/**
 * Queueing recorded callbacks for processing: one event-bus emit for every callback the route recorded in the same
 * turn of the event loop (callbacks/per-turn.ts), instead of one emit each, delivered after the plugin's
 * `callbackProcessingDelayMs` (modules/payneteasy/plugin-options.ts: the storefront completes its cart first, and a
 * burst of callbacks is answered before it is processed). The delay is the event bus's own: a BullMQ delayed job on
 * Medusa's Redis event bus (any worker instance picks it up), a timer on the local one.
 *
 * Why one emit a turn: Medusa's Redis event bus sends each emit as a BullMQ `addBulk`, a MULTI pipeline that ioredis
 * builds by copying every Lua script BullMQ defines onto the new pipeline object. That costs about 0.5 ms of CPU per
 * emit however few events it carries, against about 0.1 ms per event in an emit of ten (bench "callbacks/s").
 *
 * The route answers the gateway 200 only after the emit carrying its event has succeeded. A failed emit fails every
 * callback it carried: each is answered 500 and re-sent by the gateway, and a row left `received` is picked up by the
 * reconciliation tick (the route does not queue a copy of a row in flight).
 */
import type { IEventBusModuleService } from "@medusajs/framework/types"
import { perTurn } from "../../callbacks/per-turn"
import { CALLBACK_RECEIVED } from "./process-callback"

/** Callback-log row `id`, to be processed `delayMs` from now. */
export type QueuedCallback = { id: string; delayMs: number }

/** Queues the processing of a callback-log row (`payneteasy.callback.received`); resolves once it is queued. */
export const queueCallbackProcessing = perTurn<IEventBusModuleService, QueuedCallback, void>(async (bus, queued) => {
  // One process passes one delay (a plugin option), so a turn makes one emit; a batch never mixes two delays.
  const byDelay = new Map<number, string[]>()
  for (const { id, delayMs } of queued) byDelay.set(delayMs, [...(byDelay.get(delayMs) ?? []), id])
  await Promise.all(
    [...byDelay].map(([delayMs, ids]) =>
      bus.emit(ids.map((id) => ({ name: CALLBACK_RECEIVED, data: { id } })), delayMs > 0 ? { delay: delayMs } : {})
    )
  )
  return queued.map(() => undefined)
})

/**
 * Queueing recorded callbacks for processing: one event-bus emit for every callback the route recorded in the same
 * turn of the event loop (callbacks/per-turn.ts), instead of one emit each.
 *
 * Why: Medusa's Redis event bus sends each emit as a BullMQ `addBulk`, a MULTI pipeline that ioredis builds by copying
 * every Lua script BullMQ defines onto the new pipeline object. That costs about 0.5 ms of CPU per emit however few
 * events it carries, against about 0.1 ms per event in an emit of ten (bench "callbacks/s").
 *
 * The route answers the gateway 200 only after the emit carrying its event has succeeded. A failed emit fails every
 * callback it carried: each is answered 500 and re-sent by the gateway, and a row left `received` is picked up by the
 * reconciliation tick (the route does not queue a copy of a row in flight).
 */
import type { IEventBusModuleService } from "@medusajs/framework/types"
import { perTurn } from "../../callbacks/per-turn"
import { CALLBACK_RECEIVED } from "./process-callback"

/** Queues the processing of callback-log row `id` (`payneteasy.callback.received`); resolves once it is queued. */
export const queueCallbackProcessing = perTurn<IEventBusModuleService, string, void>(async (bus, ids) => {
  await bus.emit(ids.map((id) => ({ name: CALLBACK_RECEIVED, data: { id } })))
  return ids.map(() => undefined)
})

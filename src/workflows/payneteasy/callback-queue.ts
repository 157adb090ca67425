/**
 * Queueing recorded callbacks for processing (`payneteasy.callback.received`), delivered after the plugin's
 * `callbackProcessingDelayMs` (modules/payneteasy/plugin-options.ts: the storefront completes its cart first, and a
 * burst of callbacks is answered before it is processed). The delay is the event bus's own: a BullMQ delayed job on
 * Medusa's Redis event bus (any worker instance picks it up), a timer on the local one.
 *
 * Few emits, however many callbacks: at most one emit is in flight per event bus. The callbacks queued in one turn of
 * the event loop go out together, and those queued while an emit is in flight wait for it and then go out together.
 * Why: Medusa's Redis event bus sends each emit as a BullMQ `addBulk`, a MULTI pipeline that ioredis builds by copying
 * every Lua script BullMQ defines onto the new pipeline object. That costs about 0.5 ms of CPU per emit however few
 * events it carries, against about 0.1 ms per event in an emit of ten (bench "callbacks/s"). Hand-written rather than
 * DataLoader (callbacks/per-turn.ts): DataLoader batches one turn, not "until the emit in flight has settled".
 *
 * The promise settles with the emit carrying the callback: it rejects with that emit's error. The callback route does
 * not wait for it (the row it recorded is what the gateway's 200 stands for); a row whose emit failed stays `received`
 * and the reconciliation tick processes it (workflows/payneteasy/reconcile.ts, stale callbacks).
 */
import type { IEventBusModuleService } from "@medusajs/framework/types"
import { CALLBACK_RECEIVED } from "./process-callback"

/** Callback-log row `id`, to be processed `delayMs` from now. */
export type QueuedCallback = { id: string; delayMs: number }

type Waiting = QueuedCallback & { resolve: () => void; reject: (error: unknown) => void }
type Queue = { waiting: Waiting[]; draining: boolean }

const queues = new WeakMap<IEventBusModuleService, Queue>()

/** At most this many events in one emit (a burst larger than this is several emits, one after the other). */
const MAX_EVENTS_PER_EMIT = 500

/** Queues the processing of a callback-log row; resolves once the emit carrying it has succeeded. */
export function queueCallbackProcessing(bus: IEventBusModuleService, queued: QueuedCallback): Promise<void> {
  let queue = queues.get(bus)
  if (!queue) {
    queue = { waiting: [], draining: false }
    queues.set(bus, queue)
  }
  const q = queue
  const settled = new Promise<void>((resolve, reject) => q.waiting.push({ ...queued, resolve, reject }))
  if (!q.draining) {
    q.draining = true
    setImmediate(() => void drain(bus, q))
  }
  return settled
}

async function drain(bus: IEventBusModuleService, queue: Queue): Promise<void> {
  while (queue.waiting.length > 0) {
    const batch = queue.waiting.splice(0, MAX_EVENTS_PER_EMIT)
    // One process passes one delay (a plugin option), so a batch is one emit; an emit never mixes two delays.
    const byDelay = new Map<number, Waiting[]>()
    for (const w of batch) {
      const same = byDelay.get(w.delayMs)
      if (same) same.push(w)
      else byDelay.set(w.delayMs, [w])
    }
    await Promise.all(
      [...byDelay].map(async ([delayMs, waiting]) => {
        try {
          await bus.emit(waiting.map((w) => ({ name: CALLBACK_RECEIVED, data: { id: w.id } })), delayMs > 0 ? { delay: delayMs } : {})
          for (const w of waiting) w.resolve()
        } catch (error) {
          for (const w of waiting) w.reject(error)
        }
      })
    )
  }
  queue.draining = false
}

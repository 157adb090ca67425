/**
 * Queueing recorded callbacks for processing (`payneteasy.callback.received`), delivered after the plugin's
 * `callbackProcessingDelayMs` (modules/payneteasy/plugin-options.ts: the storefront completes its cart first, and a
 * burst of callbacks is answered before it is processed). The delay is the event bus's own: a BullMQ delayed job on
 * Medusa's Redis event bus (any worker instance picks it up), a timer on the local one.
 *
 * Few emits and few events, however many callbacks: at most one emit is in flight per event bus, and a callback waits
 * up to `EMIT_GATHER_MS` (never longer than its own processing delay) for others to go out with it. Those queued
 * meanwhile, or while an emit is in flight, go out together, as one event per `CALLBACK_IDS_PER_EVENT` callbacks
 * (`{ ids }`; the subscriber processes them one after the other, as the bus's worker would process one event each).
 * Processing therefore starts between `callbackProcessingDelayMs` and that plus 50 ms after the callback was recorded.
 * Why: Medusa's Redis event bus sends each emit as a BullMQ `addBulk`, a MULTI pipeline that ioredis builds by copying
 * every Lua script BullMQ defines onto the new pipeline object: about 0.5 ms of CPU per emit however few events it
 * carries. Each event is then a BullMQ job of its own (its JSON, its options, one script call in the pipeline): about
 * 0.1 ms more per event. With one event per callback and an emit as soon as the one in flight had settled (after one
 * Redis round trip, about as long as a callback takes), the emits were 8 % of the route's CPU in a burst (bench
 * "callbacks/s"). Hand-written rather than DataLoader (core/callbacks/per-turn.ts): DataLoader batches one turn, not "until
 * the emit in flight has settled, and for a while".
 *
 * The promise settles with the emit carrying the callback: it rejects with that emit's error. The callback route does
 * not wait for it (the row it recorded is what the gateway's 200 stands for); a row whose emit failed stays `received`
 * and the reconciliation tick processes it (workflows/payneteasy/reconcile.ts, stale callbacks), as it does the rows
 * still waiting here when the process stops.
 */
import type { IEventBusModuleService } from "@medusajs/framework/types"

/** The event a recorded callback is announced by; subscribers/payneteasy-callback.ts processes it. */
export const CALLBACK_RECEIVED = "payneteasy.callback.received"

/**
 * A `payneteasy.callback.received` event's data: the callback-log rows to process. `{ id }` is what versions before
 * 2026-11-25 emitted, one event per callback; their delayed jobs may still be in Redis after an upgrade.
 */
export type CallbackReceived = { ids: string[] } | { id: string }

/** The callback-log row ids an event names, in order. */
export const callbackIdsOf = (data: CallbackReceived): string[] => ("ids" in data ? data.ids : [data.id])

/** Callback-log row `id`, to be processed `delayMs` from now. */
export type QueuedCallback = { id: string; delayMs: number }

type Waiting = QueuedCallback & { queuedAt: number; resolve: () => void; reject: (error: unknown) => void }
type Queue = { waiting: Waiting[]; draining: boolean }

const queues = new WeakMap<IEventBusModuleService, Queue>()

/** How long a queued callback waits for others to share its emit, at most (and never longer than its delay). */
export const EMIT_GATHER_MS = 50

/** At most this many callbacks in one emit (a burst larger than this is several emits, one after the other). */
const MAX_CALLBACKS_PER_EMIT = 500

/**
 * At most this many callbacks in one event: one event is one job for one worker instance, processed in about a second
 * (a worker processes 20–30 callbacks a second: bench "callbacks/s"), so a burst still spreads over several workers.
 */
export const CALLBACK_IDS_PER_EVENT = 25

/** The `payneteasy.callback.received` events for these callback-log row ids, `CALLBACK_IDS_PER_EVENT` ids each. */
export function callbackEvents(ids: string[]): Array<{ name: typeof CALLBACK_RECEIVED; data: CallbackReceived }> {
  const events: Array<{ name: typeof CALLBACK_RECEIVED; data: CallbackReceived }> = []
  for (let i = 0; i < ids.length; i += CALLBACK_IDS_PER_EVENT) {
    events.push({ name: CALLBACK_RECEIVED, data: { ids: ids.slice(i, i + CALLBACK_IDS_PER_EVENT) } })
  }
  return events
}

/** Queues the processing of a callback-log row; resolves once the emit carrying it has succeeded. */
export function queueCallbackProcessing(bus: IEventBusModuleService, queued: QueuedCallback): Promise<void> {
  let queue = queues.get(bus)
  if (!queue) {
    queue = { waiting: [], draining: false }
    queues.set(bus, queue)
  }
  const q = queue
  const settled = new Promise<void>((resolve, reject) => q.waiting.push({ ...queued, queuedAt: Date.now(), resolve, reject }))
  if (!q.draining) {
    q.draining = true
    setImmediate(() => void drain(bus, q))
  }
  return settled
}

async function drain(bus: IEventBusModuleService, queue: Queue): Promise<void> {
  while (queue.waiting.length > 0) {
    const oldest = queue.waiting[0]
    const gather = oldest.queuedAt + Math.min(EMIT_GATHER_MS, oldest.delayMs) - Date.now()
    if (gather > 0) await new Promise((resolve) => setTimeout(resolve, gather))
    const batch = queue.waiting.splice(0, MAX_CALLBACKS_PER_EMIT)
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
          await bus.emit(callbackEvents(waiting.map((w) => w.id)), delayMs > 0 ? { delay: delayMs } : {})
          for (const w of waiting) w.resolve()
        } catch (error) {
          for (const w of waiting) w.reject(error)
        }
      })
    )
  }
  queue.draining = false
}

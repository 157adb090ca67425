/**
 * Batching the calls of one event-loop turn: `perTurn(batch)` gives a function that takes one key at a time, collects
 * the keys every caller passes during the current turn of the event loop, and settles each caller from one `batch` call
 * for all of them (per resource: one batch never mixes two event buses, services or connections).
 *
 * Why: the callback route's round trips (the session read, the log insert, the event-bus emit) each cost a fixed
 * amount per call — a statement, a pooled connection, a commit, an ioredis pipeline — that a storm of callbacks (the
 * gateway re-sending after an outage, bench "callbacks/s") pays once per request. Requests that reach the same step in
 * the same turn now share it. A call alone in its turn waits one turn (setImmediate), a few microseconds.
 *
 * DataLoader does the batching (its batch function is exactly "all the keys asked for in one tick"), scheduled on
 * setImmediate so the turn's I/O callbacks all get in, and without its cache: a key passed twice is two calls, as it
 * was before batching. Each caller's promise settles only when its batch has: a batch that fails fails every caller in
 * it, with the same error, and a batch may answer one key with an Error of its own.
 */
import DataLoader from "dataloader"

export function perTurn<R extends object, K, V>(
  batch: (resource: R, keys: readonly K[]) => Promise<ReadonlyArray<V | Error>>,
  maxBatchSize = 100
): (resource: R, key: K) => Promise<V> {
  const loaders = new WeakMap<R, DataLoader<K, V>>()
  return (resource, key) => {
    let loader = loaders.get(resource)
    if (!loader) {
      loader = new DataLoader<K, V>((keys) => batch(resource, keys), {
        cache: false,
        maxBatchSize,
        batchScheduleFn: (run) => setImmediate(run),
      })
      loaders.set(resource, loader)
    }
    return loader.load(key)
  }
}

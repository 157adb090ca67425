/**
 * Medusa's own Redis modules (event bus, workflow engine, locking) as medusa-config `modules` entries, for an app that
 * runs as separate `server` and `worker` processes (docs/production.md). `namespace` prefixes the queue
 * names and lock keys, so runs sharing one Redis do not take each other's jobs. `eventWorkers`: how many events the
 * worker's event bus processes at once (BullMQ's default is one at a time).
 */
export function redisModules(redisUrl: string, namespace: string, opts: { eventWorkers?: number } = {}) {
  return [
    {
      resolve: "@medusajs/medusa/event-bus-redis",
      options: { redisUrl, queueName: `${namespace}-events`, ...(opts.eventWorkers ? { workerOptions: { concurrency: opts.eventWorkers } } : {}) },
    },
    {
      resolve: "@medusajs/medusa/workflow-engine-redis",
      options: { redis: { redisUrl, queueName: `${namespace}-workflows`, jobQueueName: `${namespace}-workflow-jobs` } },
    },
    {
      resolve: "@medusajs/medusa/locking",
      options: {
        providers: [
          { resolve: "@medusajs/medusa/locking-redis", id: "locking-redis", is_default: true, options: { redisUrl, namespace: `${namespace}:lock:` } },
        ],
      },
    },
  ]
}

/**
 * The Redis the two-instance spec needs: the machine's own (127.0.0.1:6379, or REDIS_URL), else one started from the
 * Debian `redis-server` package on a free port for this run. No Redis and no redis-server binary is a test failure
 * naming the command that installs it — never a silent skip. Each run uses its own namespace (queue names, lock
 * prefix), and `clean()` deletes that namespace's keys, so runs sharing one Redis do not see each other's work.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import crypto from "node:crypto"
import Redis from "ioredis"
import { getFreePort } from "../../integration-tests/helpers/ports"

export const REDIS_INSTALL_HINT =
  "Redis is required for the two-instance test and none answered at 127.0.0.1:6379 (or REDIS_URL). Install it with " +
  "`apt-get install redis-server` and start it with `service redis-server start` (or `redis-server --daemonize yes`)."

export interface TestRedis {
  url: string
  /** Queue names and lock prefix of this run (PNE_APP_REDIS_NAMESPACE). */
  namespace: string
  /** Whether this run started the server (it stops it in `close`). */
  started: boolean
  close(): Promise<void>
}

async function answers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1500 })
  client.on("error", () => undefined)
  try {
    await client.connect()
    return (await client.ping()) === "PONG"
  } catch {
    return false
  } finally {
    client.disconnect()
  }
}

async function startRedisServer(): Promise<{ url: string; child: ChildProcess }> {
  const port = await getFreePort()
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  })
  const url = `redis://127.0.0.1:${port}`
  const deadline = Date.now() + 10_000
  while (!(await answers(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`redis-server did not start on port ${port}. ${REDIS_INSTALL_HINT}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  return { url, child }
}

/** Deletes every key of `namespace` (BullMQ queues `<prefix>:<ns>-…`, locks `<ns>:lock:…`). */
async function deleteNamespace(url: string, namespace: string): Promise<number> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 })
  let deleted = 0
  try {
    for await (const keys of client.scanStream({ match: `*${namespace}*`, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length) deleted += await client.del(...keys)
    }
  } finally {
    client.disconnect()
  }
  return deleted
}

export async function requireRedis(): Promise<TestRedis> {
  const namespace = `pne2i-${crypto.randomBytes(4).toString("hex")}`
  const own = process.env.REDIS_URL || "redis://127.0.0.1:6379"
  let url = own
  let child: ChildProcess | undefined
  if (!(await answers(own))) {
    const installed = spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0
    if (!installed) throw new Error(REDIS_INSTALL_HINT)
    ;({ url, child } = await startRedisServer())
  }
  return {
    url,
    namespace,
    started: child !== undefined,
    close: async () => {
      if (child) {
        child.kill("SIGTERM")
        return
      }
      await deleteNamespace(url, namespace)
    },
  }
}

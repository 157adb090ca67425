/**
 * Parent side of bench/app/server.ts: starts the Medusa processes (ts-node, --expose-gc so RSS is read after a full GC;
 * BENCH_CPU_PROF=<dir> adds --cpu-prof there, sampled every 250 µs since a flood lasts well under a second) and calls
 * their IPC commands.
 *
 * `startApp` deploys what docs/production.md describes: a `server` process and a `worker` process on one
 * database and one Redis. The worker is forked with the server and boots as soon as the server's database is ready
 * (it loads its modules meanwhile), and runs at the lowest
 * CPU priority (nice 19): on a 2-core bench machine it stands in for the worker's own machine, so the server's
 * figures are the server's (the worker still uses every idle cycle, and drains what the server recorded).
 */
import { fork, type ChildProcess } from "node:child_process"
import os from "node:os"
import path from "node:path"
import { requireRedis, type TestRedis } from "../../reliability-tests/helpers/redis"
import type { Ready, SharedEnv, WorkerReady } from "./shared"

export interface ChildApp<R> {
  ready: R
  pid: number
  call<T = any>(cmd: string, args?: unknown): Promise<T>
  stop(): Promise<void>
}

export interface AppProcess extends ChildApp<Ready> {
  worker: ChildApp<WorkerReady>
}

const BOOT_TIMEOUT_MS = 240_000

/**
 * Forks one bench Medusa process. `onMigrated`: the server reports its database ready. `shared` (the worker): the
 * process waits for it before booting; a rejected `shared` kills it.
 */
function startChild<R>(env: NodeJS.ProcessEnv, onMigrated?: (shared: SharedEnv) => void, shared?: Promise<SharedEnv>): Promise<ChildApp<R>> {
  const execArgv = ["--expose-gc", "-r", "ts-node/register/transpile-only"]
  if (process.env.BENCH_CPU_PROF) execArgv.push("--cpu-prof", "--cpu-prof-interval=250", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`)
  const child: ChildProcess = fork(path.join(__dirname, "server.ts"), [], {
    execArgv,
    env: { ...process.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "error", MEDUSA_DISABLE_TELEMETRY: "true", NODE_ENV: process.env.BENCH_NODE_ENV ?? "production", ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  })
  shared?.then(
    (env) => child.send({ shared: env }),
    () => child.kill("SIGKILL")
  )
  let seq = 0
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>()
  const role = env.BENCH_ROLE ?? "server"
  return new Promise<ChildApp<R>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the bench Medusa ${role} did not boot in time`)), BOOT_TIMEOUT_MS)
    child.on("message", (msg: any) => {
      if (msg.migrated) {
        onMigrated?.(msg.migrated)
      } else if (msg.ready) {
        clearTimeout(timer)
        resolve({
          ready: msg.ready,
          pid: child.pid!,
          call: (cmd, args) =>
            new Promise((res, rej) => {
              const id = ++seq
              pending.set(id, { resolve: res, reject: rej })
              child.send({ id, cmd, args })
            }),
          stop: async () => {
            if (child.exitCode !== null) return
            const exited = new Promise<void>((r) => child.once("exit", () => r()))
            child.send({ id: ++seq, cmd: "shutdown" })
            const kill = setTimeout(() => child.kill("SIGKILL"), 20_000)
            await exited
            clearTimeout(kill)
          },
        })
      } else if (msg.failed) {
        clearTimeout(timer)
        reject(new Error(`the bench Medusa ${role} failed to boot:\n${msg.failed}`))
      } else if (typeof msg.id === "number") {
        const p = pending.get(msg.id)
        pending.delete(msg.id)
        if (msg.ok) p?.resolve(msg.result)
        else p?.reject(new Error(msg.error))
      }
    })
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`the bench Medusa ${role} exited with ${code}`))
      for (const p of pending.values()) p.reject(new Error(`the bench Medusa ${role} exited with ${code}`))
    })
  })
}

/**
 * The server and the worker, both up; `stop` stops both and cleans the run's Redis namespace. Both are forked at once:
 * the worker loads its modules while the server prepares the database, and boots when told where it is.
 */
export async function startApp(): Promise<AppProcess> {
  const redis: TestRedis = await requireRedis()
  // The test app's config (integration-tests/medusa-config.ts) with the plugin's own callback processing delay, not the
  // tests' 50 ms: the bench measures the plugin as a store deploys it.
  const redisEnv = { PNE_TEST_REDIS_URL: redis.url, PNE_TEST_REDIS_NAMESPACE: redis.namespace, PNE_TEST_CALLBACK_DELAY_MS: "default" }
  let migrated!: (shared: SharedEnv) => void
  let failed!: (e: unknown) => void
  const shared = new Promise<SharedEnv>((resolve, reject) => {
    migrated = resolve
    failed = reject
  })
  shared.catch(() => undefined)
  const workerStarted = startChild<WorkerReady>({ ...redisEnv, BENCH_ROLE: "worker", MEDUSA_WORKER_MODE: "worker" }, undefined, shared)
  workerStarted.catch(() => undefined)
  try {
    const server = await startChild<Ready>({ ...redisEnv, BENCH_ROLE: "server", MEDUSA_WORKER_MODE: "server" }, migrated).catch((e) => {
      failed(e)
      throw e
    })
    // a server that booted without reporting its database would leave the worker waiting: the same failure
    failed(new Error("the bench server did not report its migrated database"))
    const worker = await workerStarted.catch(async (e) => {
      await server.stop()
      throw e
    })
    os.setPriority(worker.pid, 19)
    return {
      ...server,
      worker,
      stop: async () => {
        await worker.stop()
        await server.stop()
        await redis.close()
      },
    }
  } catch (e) {
    await (await workerStarted.catch(() => undefined))?.stop()
    await redis.close()
    throw e
  }
}

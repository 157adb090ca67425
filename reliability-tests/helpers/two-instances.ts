/**
 * Two Medusa processes on one Postgres database and one Redis, as Medusa documents for production: a `server`
 * (MEDUSA_WORKER_MODE=server: HTTP routes, no scheduled jobs, no event processing) and a `worker`
 * (MEDUSA_WORKER_MODE=worker: scheduled jobs and subscribers, no routes), both loading the BUILT plugin from the app
 * directory of integration-tests/helpers/built-app.ts, with Medusa's event-bus-redis, workflow-engine-redis and
 * locking-redis modules. The gateway sandbox runs in the test process with its own callbacks off (the spec delivers
 * them). The server starts first; the spec starts the worker when it wants (`startWorker`), so it can first show
 * that the server alone settles nothing.
 */
import { Client } from "pg"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { getFreePort } from "../../integration-tests/helpers/ports"
import type { Api, StoreFixture } from "../../integration-tests/helpers/store"
import {
  childEnv, cloneTemplate, ensurePluginBuilt, ensureTemplate, httpApi, prepareAppDir, sandboxRegistrations, startMedusa, stopMedusa,
  type RunningMedusa,
} from "../../integration-tests/helpers/built-app"
import { requireRedis, type TestRedis } from "./redis"

/** Hosted page, automatic capture: a sale, so a paid session must end with one order and one capture. */
export const PROVIDER_ID = "pp_payneteasy_auto"

export interface Instance {
  mode: "server" | "worker"
  url: string
  process: RunningMedusa
  /** From spawning `medusa start` to /health answering. */
  bootMs: number
}

export interface TwoInstances {
  redis: TestRedis
  sandbox: Sandbox
  store: StoreFixture
  server: Instance
  /** Set once `startWorker` resolved. */
  worker?: Instance
  /** Store API of the server instance (the storefront's backend). */
  api: Api
  startWorker(): Promise<Instance>
  /** A query against the shared database. */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>
  close(): Promise<void>
}

export async function startTwoInstances(): Promise<TwoInstances> {
  const redis = await requireRedis()
  const cleanups: Array<() => Promise<unknown>> = [() => redis.close()]
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  }
  try {
    prepareAppDir(await ensurePluginBuilt())
    const sandbox = await startSandbox({ processingMs: 50, callbackDelayMs: 20, port: 0, host: "127.0.0.1" })
    cleanups.push(() => sandbox.close())
    sandbox.control.addFault({ kind: "callback-off" })
    const [serverPort, workerPort] = [await getFreePort(), await getFreePort()]
    const serverUrl = `http://localhost:${serverPort}`
    const providers = [{ id: "auto", options: { flow: "hosted", capture: "automatic" } }]
    const appEnv = childEnv({
      PNE_ADMIN_APP_PROVIDERS: JSON.stringify(sandboxRegistrations(providers, sandbox.url, serverUrl)),
      PNE_APP_REDIS_URL: redis.url,
      PNE_APP_REDIS_NAMESPACE: redis.namespace,
      PNE_APP_ADMIN_DISABLED: "true",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    })
    const template = await ensureTemplate(appEnv, [PROVIDER_ID])
    const db = await cloneTemplate(template.name, "pne_2i")
    cleanups.push(db.drop)
    const pg = new Client({ connectionString: db.url })
    await pg.connect()
    cleanups.push(() => pg.end())
    const env = { ...appEnv, DATABASE_URL: db.url }
    const t0 = Date.now()
    const serverProcess = await startMedusa({ ...env, MEDUSA_WORKER_MODE: "server" }, serverPort, "server")
    const server: Instance = { mode: "server", url: serverUrl, process: serverProcess, bootMs: Date.now() - t0 }
    cleanups.push(() => stopMedusa(server.process.child))
    const two: TwoInstances = {
      redis,
      sandbox,
      store: template.fixture.store,
      server,
      api: httpApi(serverUrl),
      startWorker: async () => {
        const t1 = Date.now()
        const started = await startMedusa({ ...env, MEDUSA_WORKER_MODE: "worker" }, workerPort, "worker")
        cleanups.push(() => stopMedusa(started.child))
        two.worker = { mode: "worker", url: `http://localhost:${workerPort}`, process: started, bootMs: Date.now() - t1 }
        return two.worker
      },
      sql: async (text, params) => (await pg.query(text, params as unknown[])).rows,
      close,
    }
    return two
  } catch (error) {
    await close()
    throw error
  }
}

/**
 * Two instances: a Medusa `server` and a Medusa `worker` (helpers/two-instances.ts) share one Postgres database and
 * one Redis (event-bus-redis, workflow-engine-redis, locking-redis), loading the BUILT plugin.
 *
 * 1. The server alone: paid sessions whose callbacks never come stay unsettled — the server runs no scheduled job
 *    (reconciliation) and processes no events; the worker answers /health but serves no routes (404).
 * 2. The worker starts; its reconciliation job settles those sessions.
 * 3. More sessions are paid; their genuine callbacks (signed with the sandbox merchant's control key, approved and
 *    stale, GET and POST, each duplicated many times) go to either instance at random and concurrently, mixed with
 *    cart completions. The server records them and emits the event the worker processes; copies sent to the worker
 *    get 404 (as when a proxy routes the gateway to a host without routes), and reconciliation covers sessions all
 *    of whose callbacks went there.
 * What must hold for every session: exactly one order for its cart, one payment, one capture, one approved sale.
 */
import { setTimeout as sleep } from "node:timers/promises"
import { callbackControl } from "../src/gateway"
import { DEFAULT_SANDBOX_MERCHANT, payHostedPage } from "../src/sandbox"
import { checkoutToPaymentSession, completeCartResponse } from "../integration-tests/helpers/store"
import { printFigures } from "./helpers/figures"
import { RELIABILITY_SEED, rng } from "./helpers/random"
import { PROVIDER_ID, startTwoInstances, type TwoInstances } from "./helpers/two-instances"

const QUIET_SESSIONS = Number(process.env.RELIABILITY_2I_QUIET_SESSIONS ?? 3)
const STORM_SESSIONS = Number(process.env.RELIABILITY_2I_SESSIONS ?? 10)
const DELIVERIES = Number(process.env.RELIABILITY_2I_DELIVERIES ?? 12)
/** Longer than three reconciliation intervals (3 s) plus the first check's delay (3–5 s). */
const SERVER_ALONE_MS = 12_000
const CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Two Instances" }

interface Paid {
  cartId: string
  sessionId: string
  orderid: string
  amount: string
}

interface Outcome {
  orders: number
  payments: number
  captures: number
  sales: number
}

let two: TwoInstances | undefined
const app = () => {
  if (!two) throw new Error("the two instances did not start (see beforeAll)")
  return two
}

beforeAll(async () => {
  two = await startTwoInstances()
}, 8 * 60_000)

afterAll(async () => {
  await two?.close()
}, 60_000)

async function paidSession(): Promise<Paid> {
  const { api, store, sandbox } = app()
  const { cart, session } = await checkoutToPaymentSession(api, store, PROVIDER_ID)
  await payHostedPage(session.data.redirectUrl, CARD)
  const [gw] = sandbox.control.byClientOrderId(session.id)
  const final = await sandbox.control.waitForOutcome(gw.orderid)
  expect(final.status).toBe("approved")
  return { cartId: cart.id, sessionId: session.id, orderid: gw.orderid, amount: final.initialAmount }
}

function callbackParams(p: Paid, status: string): Record<string, string> {
  return {
    status, merchant_order: p.sessionId, client_orderid: p.sessionId, orderid: p.orderid, type: "sale", amount: p.amount,
    currency: "EUR", control: callbackControl(status, p.orderid, p.sessionId, DEFAULT_SANDBOX_MERCHANT.controlKey),
  }
}

async function deliver(baseUrl: string, params: Record<string, string>, method: "GET" | "POST"): Promise<number> {
  const query = new URLSearchParams(params).toString()
  const res = method === "GET"
    ? await fetch(`${baseUrl}/payneteasy/callback?${query}`, { redirect: "manual" })
    : await fetch(`${baseUrl}/payneteasy/callback`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: query, redirect: "manual" })
  await res.arrayBuffer()
  return res.status
}

async function outcome(p: Paid): Promise<Outcome> {
  const { sql, sandbox } = app()
  const orders = await sql(`select order_id from order_cart where cart_id = $1 and deleted_at is null`, [p.cartId])
  const payments = await sql(`select id from payment where payment_session_id = $1 and deleted_at is null`, [p.sessionId])
  const captures = await sql(
    `select c.id from capture c join payment p on p.id = c.payment_id where p.payment_session_id = $1 and c.deleted_at is null`,
    [p.sessionId]
  )
  const sales = sandbox.control.byClientOrderId(p.sessionId).flatMap((o) => o.transactions.filter((t) => t.type === "sale" && t.status === "approved"))
  return { orders: orders.length, payments: payments.length, captures: captures.length, sales: sales.length }
}

/** The sessions among `paid` that reconciliation has started watching. */
async function watched(paid: Paid[]): Promise<string[]> {
  const rows = await app().sql<{ session_id: string }>(
    `select distinct session_id from payneteasy_reconciliation where session_id = any($1) and deleted_at is null`,
    [paid.map((p) => p.sessionId)]
  )
  return rows.map((r) => r.session_id)
}

/** Waits (bounded) until every session has an order; returns how long it took. */
async function untilOrdered(paid: Paid[], timeoutMs: number): Promise<number> {
  const t0 = Date.now()
  for (;;) {
    const missing = []
    for (const p of paid) if ((await outcome(p)).orders === 0) missing.push(p.sessionId)
    if (missing.length === 0) return Date.now() - t0
    if (Date.now() - t0 > timeoutMs) {
      throw new Error(`no order after ${timeoutMs} ms for ${missing.join(", ")}\nworker output:\n${app().worker?.process.output().slice(-4000)}`)
    }
    await sleep(500)
  }
}

async function pool<T>(items: T[], size: number, work: (item: T) => Promise<void>) {
  let next = 0
  await Promise.all(Array.from({ length: size }, async () => {
    while (next < items.length) await work(items[next++])
  }))
}

const exactlyOne = (r: Outcome) => r.orders === 1 && r.payments === 1 && r.captures === 1 && r.sales === 1

// One test: its phases depend on each other (the worker starts in the middle).
it(`server + worker on one Postgres and Redis: ${QUIET_SESSIONS} sessions settled by the worker's reconciliation, ${STORM_SESSIONS} sessions × ${DELIVERIES} callbacks to both instances at random; one order and one capture each`, async () => {
  const random = rng(RELIABILITY_SEED + 2)

  // 1. The server alone settles nothing without a worker.
  const quiet: Paid[] = []
  for (let i = 0; i < QUIET_SESSIONS; i++) quiet.push(await paidSession())
  await sleep(SERVER_ALONE_MS)
  const beforeWorker: Outcome[] = []
  for (const p of quiet) beforeWorker.push(await outcome(p))
  expect(beforeWorker.map((r) => r.orders)).toEqual(quiet.map(() => 0))
  // A reconciliation tick's discovery would have started watching them (payneteasy_reconciliation rows) within 3 s.
  expect(await watched(quiet)).toEqual([])

  // 2. The worker: no routes (404 where the server has the callback route), and its job settles the quiet sessions.
  const worker = await app().startWorker()
  const workerProbe = await fetch(`${worker.url}/payneteasy/callback`, { redirect: "manual" })
  await workerProbe.arrayBuffer()
  expect(workerProbe.status).toBe(404)
  const serverProbe = await fetch(`${app().server.url}/payneteasy/callback`, { redirect: "manual" })
  await serverProbe.arrayBuffer()
  expect(serverProbe.status).toBe(400) // the route exists: a callback without parameters is malformed
  const reconciledInMs = await untilOrdered(quiet, 60_000)
  expect((await watched(quiet)).sort()).toEqual(quiet.map((p) => p.sessionId).sort())

  // 3. Callbacks to both instances at random, duplicated, concurrent, with cart completions.
  const stormed: Paid[] = []
  for (let i = 0; i < STORM_SESSIONS; i++) stormed.push(await paidSession())
  const answers: Record<string, Record<number, number>> = { server: {}, worker: {} }
  const jobs: Array<() => Promise<unknown>> = []
  for (const p of stormed) {
    for (let d = 0; d < DELIVERIES; d++) {
      const target = random() < 0.5 ? app().server : worker
      const status = random() < 0.8 ? "approved" : "processing"
      const method = random() < 0.5 ? "GET" : "POST"
      jobs.push(async () => {
        const code = await deliver(target.url, callbackParams(p, status), method)
        answers[target.mode][code] = (answers[target.mode][code] ?? 0) + 1
      })
    }
    jobs.push(() => completeCartResponse(app().api, app().store, p.cartId))
  }
  for (let i = jobs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[jobs[i], jobs[j]] = [jobs[j], jobs[i]]
  }
  await pool(jobs, 8, (job) => job().then(() => undefined))
  const stormSettledInMs = await untilOrdered(stormed, 90_000)
  await sleep(3_000) // stray duplicates and job ticks land

  const all = [...quiet, ...stormed]
  const results: Outcome[] = []
  for (const p of all) results.push(await outcome(p)) // one pg client: one query at a time
  const count = (k: keyof Outcome) => results.reduce((n, r) => n + r[k], 0)
  const fmt = (a: Record<number, number>) => Object.entries(a).map(([k, v]) => `${k}×${v}`).join(" ") || "none"
  printFigures({
    sessions: all.length,
    "settled by the worker's reconciliation alone": quiet.length,
    deliveries: jobs.length - stormed.length,
    "server answers": fmt(answers.server),
    "worker answers": fmt(answers.worker),
    orders: count("orders"),
    captures: count("captures"),
    "sessions with exactly one order and one capture": results.filter(exactlyOne).length,
    "server boot (ms)": app().server.bootMs,
    "worker boot (ms)": worker.bootMs,
    "worker settled the quiet sessions in (ms)": reconciledInMs,
    "storm settled in (ms)": stormSettledInMs,
  })
  expect(results.filter((r) => !exactlyOne(r))).toEqual([])
  expect(Object.keys(answers.server).map(Number)).toEqual([200])
  expect(Object.keys(answers.worker).map(Number)).toEqual([404])
})

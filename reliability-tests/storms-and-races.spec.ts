/**
 * Callback storms and races on the hosted page with automatic capture (pp_payneteasy_auto: a sale, so each paid
 * session must end with exactly one order and exactly one capture record).
 *
 * The sandbox's own callbacks are switched off; the test delivers them, signed with the merchant's control key as the
 * gateway signs them: the approved callback, stale ones (`processing`) and contradicting ones (`declined`, which STATUS
 * refutes), by GET and POST, duplicated, out of order and concurrently.
 * - Storm: 10 sessions × 50 deliveries each (20 in a soak, RELIABILITY_SOAK=1), all sessions at once, mixed with shopper returns, cart completions and
 *   reconciliation ticks.
 * - Races: 10 runs (RELIABILITY_RACES; 40 in a soak; 20 until the tier had to fit 15 minutes; 40 until the money model took over random races, 100 until the storm alone
 *   outlasted its 10 minutes on a busy 2-core machine), each firing callback, return, cart completion and a reconciliation tick for one session in a random
 *   order with random small delays.
 * What must hold for every session: one order for its cart, one payment, one capture, one approved sale at the gateway.
 * The store's product ships nothing (seedStore's `shipsNothing`), so the 60 checkouts skip the shipping step: what is
 * stormed and raced is the payment, and Medusa's cart refresh on adding a shipping method cost 22 of the file's 170 s
 * of CPU.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { callbackControl } from "../src/gateway"
import { DEFAULT_SANDBOX_MERCHANT, payHostedPage } from "../src/sandbox"
import { reconcilePaynetEasy } from "../src/workflows/payneteasy/reconcile"
import { reconcileTick } from "../integration-tests/helpers/reconcile-tick"
import { TEST_APP_DIR } from "../integration-tests/helpers/paths"
import { PROVIDER_IDS } from "../integration-tests/helpers/provider-options"
import { useSandbox } from "../integration-tests/helpers/sandbox"
import { backendUrl } from "../integration-tests/helpers/backend-url"
import { ordersForCart, paymentsForSession, waitFor } from "../integration-tests/helpers/inspect"
import {
  checkoutToPaymentSession, completeCartResponse, seedStore, type StoreFixture,
} from "../integration-tests/helpers/store"
import { setTimeout as sleep } from "node:timers/promises"
import { printFigures } from "./helpers/figures"
import { RELIABILITY_SEED, rng } from "./helpers/random"

jest.setTimeout(600_000)

const sandbox = useSandbox()
const SOAK = process.env.RELIABILITY_SOAK === "1"
// 10 sessions in npm test (20 before the fuzzer and the storm gave the tier's time back, issue 49's 15 minutes; the
// money model delivers callbacks duplicated, held back and again inside random sequences); RELIABILITY_SOAK=1 runs 20.
const SESSIONS = Number(process.env.RELIABILITY_STORM_SESSIONS ?? (SOAK ? 20 : 10))
const DELIVERIES = Number(process.env.RELIABILITY_STORM_DELIVERIES ?? 50)
// 10 in npm test (40 before the money model joined it, issue 49: its Race step fires the same callback, completions
// and tick at once inside random sequences; 20 until the tier had to fit 15 minutes). RELIABILITY_SOAK=1 runs 40.
const RACES = Number(process.env.RELIABILITY_RACES ?? (SOAK ? 40 : 10))
const SEED = RELIABILITY_SEED
const CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Storm Shopper" }

const ahead = () => new Date(Date.now() + 6_000)

interface Paid {
  cartId: string
  sessionId: string
  orderid: string
  amount: string
  returnParams: Record<string, string>
}

/** A callback for the session, signed as the gateway signs it, with the given status. */
function callbackParams(p: Paid, status: string): Record<string, string> {
  return {
    status, merchant_order: p.sessionId, client_orderid: p.sessionId, orderid: p.orderid, type: "sale", amount: p.amount,
    currency: "EUR", control: callbackControl(status, p.orderid, p.sessionId, DEFAULT_SANDBOX_MERCHANT.controlKey),
  }
}

/** Callbacks recorded for the session that processing has not finished with yet (outcome still "received"). */
async function unprocessedCallbacks(container: MedusaContainer, sessionId: string): Promise<number> {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
  const { rows } = await pg.raw(`select count(*)::int as n from payneteasy_callback where client_orderid = ? and outcome = 'received'`, [sessionId])
  return rows[0].n
}

async function deliver(params: Record<string, string>, method: "GET" | "POST"): Promise<number> {
  const query = new URLSearchParams(params).toString()
  const res = method === "GET"
    ? await fetch(`${backendUrl()}/payneteasy/callback?${query}`, { redirect: "manual" })
    : await fetch(`${backendUrl()}/payneteasy/callback`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: query, redirect: "manual" })
  await res.arrayBuffer()
  return res.status
}

async function sendReturn(params: Record<string, string>): Promise<number> {
  const res = await fetch(`${backendUrl()}/payneteasy/return`, {
    method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(params).toString(),
  })
  await res.arrayBuffer()
  return res.status
}

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let eur: StoreFixture

    beforeAll(async () => {
      // The product ships nothing, so a checkout has no shipping step: 120 checkouts without Medusa's cart refresh on
      // adding a shipping method (0.18 s of CPU each). Shipping is free in the default store, so every amount is what it
      // was; the spec is about callbacks, returns, completions and reconciliation.
      eur = await seedStore(getContainer(), { currency: "eur", unitPrice: "10.42", shipsNothing: true })
    })

    /** Checkout and pay on the hosted page with the sandbox's callbacks off: the gateway has an approved sale. */
    async function paidSession(): Promise<Paid> {
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.auto)
      const redirect = await payHostedPage(session.data.redirectUrl, CARD)
      const [gw] = sandbox().control.byClientOrderId(session.id)
      const final = await sandbox().control.waitForOutcome(gw.orderid)
      expect(final.status).toBe("approved")
      return { cartId: cart.id, sessionId: session.id, orderid: gw.orderid, amount: final.initialAmount, returnParams: redirect.params }
    }

    /** One order, one payment, one capture, one approved sale; waits (bounded) for asynchronous processing to land. */
    async function outcome(container: MedusaContainer, p: Paid) {
      await waitFor(`order for ${p.cartId}`, async () => (await ordersForCart(container, p.cartId)).length > 0, 30_000).catch(() => undefined)
      // Every callback recorded for the session has been processed (none left "received"): nothing it started is
      // still on its way to a second order or capture. (It was a fixed 200 ms wait, issue 38.)
      await waitFor(`callbacks of ${p.sessionId} processed`, async () => (await unprocessedCallbacks(container, p.sessionId)) === 0, 30_000)
      const orders = await ordersForCart(container, p.cartId)
      const payments = await paymentsForSession(container, p.sessionId)
      const captures = payments.flatMap((x: any) => x.captures ?? [])
      const gw = sandbox().control.byClientOrderId(p.sessionId)
      const sales = gw.flatMap((o) => o.transactions.filter((t) => t.type === "sale" && t.status === "approved"))
      return { orders: orders.length, payments: payments.length, captures: captures.length, sales: sales.length }
    }

    async function pool<T>(items: T[], size: number, work: (item: T, i: number) => Promise<void>) {
      let next = 0
      await Promise.all(Array.from({ length: size }, async () => {
        while (next < items.length) {
          const i = next++
          await work(items[i], i)
        }
      }))
    }

    // One test: the runner resets the database between tests, which races with the storm's last background work.
    it(`callback storm (${SESSIONS} sessions × ${DELIVERIES} deliveries), then ${RACES} race runs: one order and one capture per session`, async () => {
      const container = getContainer()
      const random = rng(SEED)
      sandbox().control.addFault({ kind: "callback-off" })
      const paid: Paid[] = []
      for (let i = 0; i < SESSIONS; i++) paid.push(await paidSession())

      // Every session's deliveries, shuffled together: 70% the approved callback, 20% stale, 10% contradicting; with
      // a return, a cart completion or a reconciliation tick after every tenth.
      type Job = () => Promise<unknown>
      const jobs: Job[] = []
      const statuses: Record<string, number> = {}
      for (const p of paid) {
        for (let d = 0; d < DELIVERIES; d++) {
          const r = random()
          const status = r < 0.7 ? "approved" : r < 0.9 ? "processing" : "declined"
          const method = random() < 0.5 ? "GET" : "POST"
          jobs.push(async () => {
            const code = await deliver(callbackParams(p, status), method)
            statuses[code] = (statuses[code] ?? 0) + 1
          })
          if (d % 10 === 9) {
            const extra = random()
            jobs.push(extra < 0.34 ? () => sendReturn(p.returnParams) : extra < 0.67 ? () => completeCartResponse(api, eur, p.cartId) : () => reconcilePaynetEasy(container, { now: ahead }))
          }
        }
      }
      for (let i = jobs.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1))
        ;[jobs[i], jobs[j]] = [jobs[j], jobs[i]]
      }
      await pool(jobs, 12, (job) => job().then(() => undefined))
      await reconcileTick(container, { now: ahead })

      const results = []
      for (const p of paid) results.push(await outcome(container, p))
      const ok = results.filter((r) => r.orders === 1 && r.payments === 1 && r.captures === 1 && r.sales === 1).length
      sandbox().control.clearFaults()
      printFigures({
        "storm sessions": paid.length, deliveries: Object.values(statuses).reduce((a, b) => a + b, 0),
        "callback answers": Object.entries(statuses).map(([k, v]) => `${k}×${v}`).join(" "),
        "sessions with exactly one order and one capture": ok,
        "extra orders": results.reduce((n, r) => n + Math.max(0, r.orders - 1), 0),
        "extra captures": results.reduce((n, r) => n + Math.max(0, r.captures - 1), 0),
      })
      expect(results.filter((r) => !(r.orders === 1 && r.payments === 1 && r.captures === 1 && r.sales === 1))).toEqual([])
      expect(Object.keys(statuses).filter((s) => Number(s) >= 500)).toEqual([])

      // Races: callback vs return vs cart completion vs reconciliation, random order and delays, two runs at a time.
      const raceRandom = rng(SEED + 1)
      sandbox().control.addFault({ kind: "callback-off" })
      const orders: Record<string, number> = {}
      const bad: string[] = []
      const runs = Array.from({ length: RACES }, (_, i) => i)
      await pool(runs, 2, async (run) => {
        const p = await paidSession()
        const actors: Array<[string, () => Promise<unknown>]> = [
          ["callback", () => deliver(callbackParams(p, "approved"), raceRandom() < 0.5 ? "GET" : "POST")],
          ["return", () => sendReturn(p.returnParams)],
          ["complete", () => completeCartResponse(api, eur, p.cartId)],
          ["reconcile", () => reconcilePaynetEasy(container, { now: ahead })],
        ]
        await Promise.all(actors.map(([, act]) => sleep(Math.floor(raceRandom() * 40)).then(act)))
        const r = await outcome(container, p)
        orders[r.orders] = (orders[r.orders] ?? 0) + 1
        if (!(r.orders === 1 && r.payments === 1 && r.captures === 1 && r.sales === 1)) bad.push(`run ${run}: ${JSON.stringify(r)}`)
      })
      sandbox().control.clearFaults()
      printFigures({
        "race runs": RACES, "runs with exactly one order and one capture": RACES - bad.length,
        "orders per run": Object.entries(orders).map(([k, v]) => `${k}:${v}`).join(" "),
      })
      expect(bad).toEqual([])
    })
  },
})

/**
 * Callbacks, the shopper's return, 3-D Secure uploads and reconciliation, end to end: a real Medusa app (Postgres) with
 * this plugin loaded from source, the gateway sandbox over HTTP (it calls our callback route itself), and the store /
 * admin APIs driven like a storefront and the dashboard. The claim under test: every gateway event lands in Medusa
 * exactly once — one order per cart, one capture per payment — whatever order callbacks and returns arrive in, and
 * even when the shopper or the callbacks never come.
 *
 * Waiting: the gateway and our subscriber are asynchronous, so tests wait for a condition (bounded, polled); no test
 * asserts on how long anything took.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { callbackControl } from "../../src/gateway"
import { payHostedPage } from "../../src/sandbox"
import { DEFAULT_SANDBOX_MERCHANT } from "../../src/sandbox"
import { reconcileTick } from "../helpers/reconcile-tick"
import { recordInTurn } from "../../src/core/callbacks/record-batch"
import { GATEWAY_EVENT } from "../../src/core/callbacks/reflect-later-event"
import { CALLBACK_RECEIVED } from "../../src/workflows/payneteasy/process-callback"
import { backendUrl } from "../helpers/backend-url"
import { TEST_APP_DIR } from "../helpers/paths"
import { PROVIDER_IDS } from "../helpers/provider-options"
import { useSandbox } from "../helpers/sandbox"
import {
  adminAndEurStore, storeHeaders, checkoutToPaymentSession, completeCartResponse, type AdminAuth,
  type StoreFixture,
} from "../helpers/store"
import { waitFor, ordersForCart, paymentsForSession, callbackLog, callbackRows, onlyGatewayOrder } from "../helpers/inspect"

jest.setTimeout(240_000)

const sandbox = useSandbox()

const STOREFRONT_RETURN = "http://storefront.test/checkout/payneteasy"
const CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Test Shopper" }
const DECLINED_CARD = { ...CARD, cvv2: "116" }

async function sessionNow(container: MedusaContainer, sessionId: string) {
  return container.resolve(Modules.PAYMENT).retrievePaymentSession(sessionId, { select: ["id", "status", "data"] })
}

/** What the order says was paid: its capture transactions (what the admin's "paid" and payment status show). */
async function orderMoney(container: MedusaContainer, orderId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ["id", "transactions.*", "summary.*"], filters: { id: orderId } })
  const order = data[0] as any
  return { transactions: order.transactions as any[], paidTotal: Number(order.summary.paid_total) }
}

/** Waits until the gateway's callbacks for `clientOrderId` were all answered, and our log processed them. */
async function waitForProcessedCallback(container: MedusaContainer, clientOrderId: string, type: string) {
  return waitFor(`processed ${type} callback for ${clientOrderId}`, async () => {
    const rows = await callbackRows(container, { client_orderid: clientOrderId, source: "callback", type })
    return rows.find((r) => r.outcome !== "received") ?? false
  })
}

/** Collects `payneteasy.gateway_event` emissions on the app's event bus until `stop()`. */
function watchGatewayEvents(container: MedusaContainer) {
  const bus = container.resolve(Modules.EVENT_BUS)
  const list: any[] = []
  const subscriberId = `test-gateway-events-${Math.random().toString(36).slice(2)}`
  const handler = async (event: { data: any }) => {
    list.push(event.data)
  }
  bus.subscribe(GATEWAY_EVENT, handler, { subscriberId })
  return { list, stop: () => bus.unsubscribe(GATEWAY_EVENT, handler, { subscriberId }) }
}

/** A GET to our callback route with the given parameters, like the gateway sends it. */
async function sendCallback(params: Record<string, string>) {
  const url = new URL(`${backendUrl()}/payneteasy/callback`)
  for (const [k, v] of Object.entries(params)) url.searchParams.append(k, v)
  return fetch(url, { redirect: "manual" })
}

/** A browser form POST to our return route. */
async function sendReturn(params: Record<string, string>) {
  return fetch(`${backendUrl()}/payneteasy/return`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params).toString(),
  })
}

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let admin: AdminAuth
    let eur: StoreFixture

    beforeAll(async () => {

      ;({ admin, eur } = await adminAndEurStore(api, getContainer()))

    })

    beforeEach(() => {
      sandbox().control.clearFaults()
    })

    /** A sale paid on the hosted page whose callback the sandbox holds back (not delivered): the test sends it. */
    async function paidWithHeldCallback() {
      sandbox().control.addFault({ kind: "callback-off", times: 1 })
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.auto)
      await payHostedPage(session.data.redirectUrl, CARD)
      const held = await waitFor("the held callback", async () =>
        sandbox().control.callbacks().find((c) => c.clientOrderId === session.id && c.type === "sale" && c.outcome === "suppressed")
      )
      return { cart, session, held }
    }

    describe("arrival order", () => {
      it("callback first, then the return: the callback creates the order (the shopper is not needed), the return and cart completion find it", async () => {
        const container = getContainer()
        const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
        const redirect = await payHostedPage(session.data.redirectUrl, CARD)

        // Nobody has come back yet: the gateway's callback alone makes the order.
        const [orderId] = await waitFor("order made by the callback", async () => {
          const ids = await ordersForCart(container, cart.id)
          return ids.length ? ids : false
        })
        const row = await waitForProcessedCallback(container, session.id, "preauth")
        expect(row.outcome).toBe("processed")
        expect(row.status).toBe("approved")
        expect(row.params.control).toBeUndefined()

        const ret = await sendReturn(redirect.params)
        expect(ret.status).toBe(303)
        const location = new URL(ret.headers.get("location")!)
        expect(`${location.origin}${location.pathname}`).toBe(STOREFRONT_RETURN)
        expect(location.searchParams.get("cart_id")).toBe(cart.id)
        expect(location.searchParams.get("order_id")).toBe(orderId)
        expect(location.searchParams.get("gateway_status")).toBe("approved")

        const completed = await completeCartResponse(api, eur, cart.id)
        expect(completed.data.type).toBe("order")
        expect(completed.data.order.id).toBe(orderId)
        expect(await ordersForCart(container, cart.id)).toEqual([orderId])
        const payments = await paymentsForSession(container, session.id)
        expect(payments).toHaveLength(1)
        expect(onlyGatewayOrder(sandbox(), session.id).transactions).toHaveLength(1)
      })

      it("return first, then the callback: the storefront completes the cart, the late callback is a no-op", async () => {
        const container = getContainer()
        sandbox().control.addFault({ kind: "callback-delay", ms: 1500, times: 1 })
        const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
        const redirect = await payHostedPage(session.data.redirectUrl, CARD)

        const ret = await sendReturn(redirect.params)
        expect(ret.status).toBe(303)
        const location = new URL(ret.headers.get("location")!)
        expect(location.searchParams.get("cart_id")).toBe(cart.id)
        expect(location.searchParams.get("payment_session_id")).toBe(session.id)

        const completed = await completeCartResponse(api, eur, cart.id)
        expect(completed.data.type).toBe("order")
        const orderId = completed.data.order.id

        const row = await waitForProcessedCallback(container, session.id, "preauth")
        expect(row.outcome).toBe("processed")
        expect(await ordersForCart(container, cart.id)).toEqual([orderId])
        expect(await paymentsForSession(container, session.id)).toHaveLength(1)
        // The return is in the log too, and never counted as the outcome.
        const returns = await callbackRows(container, { client_orderid: session.id, source: "return" })
        expect(returns).toHaveLength(1)
        expect(returns[0].outcome).toBe("ignored")
      })

      it("callbacks out of order: the preauth's callback arrives after the capture's — one order, one capture", async () => {
        const container = getContainer()
        // Hold the first callback (the preauth's) until the next one (the capture's) has been delivered.
        sandbox().control.addFault({ kind: "callback-out-of-order", times: 1, holdMs: 60_000 })
        const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
        await payHostedPage(session.data.redirectUrl, CARD)
        const completed = await completeCartResponse(api, eur, cart.id)
        expect(completed.data.type).toBe("order")
        const orderId = completed.data.order.id
        const [payment] = await paymentsForSession(container, session.id)

        const captured = await api.post(`/admin/payments/${payment.id}/capture`, {}, admin)
        expect(captured.status).toBe(200)

        const captureRow = await waitForProcessedCallback(container, session.id, "capture")
        const preauthRow = await waitForProcessedCallback(container, session.id, "preauth")
        expect(new Date(captureRow.received_at).getTime()).toBeLessThanOrEqual(new Date(preauthRow.received_at).getTime())
        expect(captureRow.outcome).toBe("processed")
        expect(preauthRow.outcome).toBe("processed")

        expect(await ordersForCart(container, cart.id)).toEqual([orderId])
        const [after] = await paymentsForSession(container, session.id)
        expect(after.captures).toHaveLength(1)
        expect(onlyGatewayOrder(sandbox(), session.id).captured).toBe("10.42")
      })
    })

    describe("queueing", () => {
      it("the event bus refusing the processing event: the gateway still gets 200 (the callback is recorded), a warning names the row (card data in the error scrubbed), and the reconciliation tick processes it", async () => {
        const container = getContainer()
        const { cart, session, held } = await paidWithHeldCallback()
        // Fault injection: the app's event bus refuses the callback's processing event (as Redis being down would);
        // every other event goes through.
        const bus = container.resolve(Modules.EVENT_BUS)
        const emit = bus.emit
        let refused = 0
        bus.emit = (async (messages: any, options?: any) => {
          if ([messages].flat().some((m: { name: string }) => m.name === CALLBACK_RECEIVED)) {
            refused++
            // an error text that carries card data must not reach the log with it
            throw new Error(`event bus unreachable while sending ${CARD.number}`)
          }
          return emit.call(bus, messages, options)
        }) as typeof bus.emit
        const warn = jest.spyOn(container.resolve(ContainerRegistrationKeys.LOGGER), "warn")
        try {
          const res = await fetch(held.url, { redirect: "manual" })
          expect(res.status).toBe(200)
          await waitFor("the refused emit", async () => refused > 0)
          const [row] = await callbackRows(container, { client_orderid: session.id, source: "callback" })
          expect(row.outcome).toBe("received")
          await waitFor("the warning", async () =>
            warn.mock.calls.some(([m]) => String(m).includes(row.id) && String(m).includes("reconciliation tick processes it"))
          )
          const warning = String(warn.mock.calls.find(([m]) => String(m).includes(row.id))![0])
          expect(warning).toContain("event bus unreachable")
          expect(warning).not.toContain(CARD.number)
          // well past the processing delay: nothing processed it, and no order was made
          await new Promise((r) => setTimeout(r, 500))
          expect((await callbackRows(container, { client_orderid: session.id, source: "callback" }))[0].outcome).toBe("received")
          expect(await ordersForCart(container, cart.id)).toEqual([])
        } finally {
          bus.emit = emit
          warn.mockRestore()
        }
        // A minute later the tick finds the row still `received` and processes it: the order is made.
        await reconcileTick(container, { now: () => new Date(Date.now() + 61_000) })
        const [processed] = await callbackRows(container, { client_orderid: session.id, source: "callback" })
        expect(processed.outcome).toBe("processed")
        expect(await ordersForCart(container, cart.id)).toHaveLength(1)
        expect(await paymentsForSession(container, session.id)).toHaveLength(1)
      })
    })

    describe("duplicates and forgeries", () => {
      it("the same callback 20 times at once: one log row, one order, one capture", async () => {
        const container = getContainer()
        // The sandbox keeps its own delivery back, so all 20 copies race each other from the first one.
        const { cart, session, held } = await paidWithHeldCallback()

        const replies = await Promise.all(Array.from({ length: 20 }, () => fetch(held.url, { redirect: "manual" })))
        expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200))

        const row = await waitForProcessedCallback(container, session.id, "sale")
        expect(row.outcome).toBe("processed")
        const rows = await callbackRows(container, { client_orderid: session.id, source: "callback" })
        expect(rows).toHaveLength(1)
        // ...and the same 20 again once everything is settled.
        const again = await Promise.all(Array.from({ length: 20 }, () => fetch(held.url, { redirect: "manual" })))
        expect(again.map((r) => r.status)).toEqual(Array(20).fill(200))
        expect(await callbackRows(container, { client_orderid: session.id, source: "callback" })).toHaveLength(1)

        const orders = await ordersForCart(container, cart.id)
        expect(orders).toHaveLength(1)
        const payments = await paymentsForSession(container, session.id)
        expect(payments).toHaveLength(1)
        expect(payments[0].captures).toHaveLength(1)
        const money = await orderMoney(container, orders[0])
        expect(money.transactions).toHaveLength(1)
        expect(money.paidTotal).toBe(10.42)
        expect(onlyGatewayOrder(sandbox(), session.id).transactions).toHaveLength(1)
      })

      it("recording several callbacks in one statement: each gets its own row once, a repeat the first copy's, an old one its row; a refused one fails alone; NULs are dropped, from values and parameter names", async () => {
        const log = callbackLog(getContainer())
        const pg = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
        const input = (orderid: string, status = "approved") => ({
          source: "callback" as const, provider_id: PROVIDER_IDS.hosted, session_id: null, orderid, client_orderid: "payses_BATCH",
          type: "sale", status, event_key: "", amount: "1.00", currency: "EUR", error_code: null, error_message: null,
          action: null, params: { orderid }, received_at: new Date(),
        })
        const [old] = await log.recordCallbacks([input("b-old")])
        expect(old.created).toBe(true)

        const batch = [input("b-1"), input("b-2"), input("b-1"), input("b-old"), input("b-1", "declined")]
        const recorded = await log.recordCallbacks(batch)
        expect(recorded.map((r) => [r.row.orderid, r.row.status, r.created])).toEqual([
          ["b-1", "approved", true], ["b-2", "approved", true], ["b-1", "approved", false], ["b-old", "approved", false], ["b-1", "declined", true],
        ])
        expect(recorded[2].row.id).toBe(recorded[0].row.id)
        expect(recorded[3].row.id).toBe(old.row.id)
        expect(new Set(recorded.map((r) => r.row.id)).size).toBe(4)
        expect(recorded[1].row).toMatchObject({ outcome: "received", params: { orderid: "b-2" }, amount: "1.00", provider_id: PROVIDER_IDS.hosted })

        // Two statements racing on the same callbacks (two server instances): each callback is created exactly once.
        const race = [input("b-race-1"), input("b-race-2")]
        const [one, two] = await Promise.all([log.recordCallbacks(race), log.recordCallbacks([...race].reverse())])
        expect([...one, ...two].filter((r) => r.created)).toHaveLength(2)
        expect(two.map((r) => r.row.id).reverse()).toEqual(one.map((r) => r.row.id))

        // Recorded in one turn, one of them refused by the database (a source its check constraint does not allow):
        // only that one fails. Text with U+0000, which Postgres cannot store, is stored without it.
        const [good, bad, alsoGood] = await Promise.allSettled([
          recordInTurn(log, input("b-turn-1")),
          recordInTurn(log, { ...input("b-turn-bad"), source: "bogus" as "callback" }),
          recordInTurn(log, { ...input("b-turn-2"), error_message: "declined\u0000", params: { "descriptor": "a\u0000b", "note\u0000": "x" } }),
        ])
        expect([good.status, bad.status, alsoGood.status]).toEqual(["fulfilled", "rejected", "fulfilled"])
        expect(alsoGood.status === "fulfilled" && alsoGood.value.row).toMatchObject({ error_message: "declined", params: { descriptor: "ab", note: "x" } })
        const { rows } = await pg.raw(`select orderid, count(*)::int as n from payneteasy_callback where client_orderid = 'payses_BATCH' group by orderid order by orderid`)
        expect(rows).toEqual([
          { orderid: "b-1", n: 2 }, { orderid: "b-2", n: 1 }, { orderid: "b-old", n: 1 }, { orderid: "b-race-1", n: 1 },
          { orderid: "b-race-2", n: 1 }, { orderid: "b-turn-1", n: 1 }, { orderid: "b-turn-2", n: 1 },
        ])
      })

      it("recording callbacks for payment sessions, the check in the insert: recorded only for a session of a registration that verified it; a missing, deleted or other registration's session records nothing; a copy gets its row only under a registration that recorded it", async () => {
        const container = getContainer()
        const log = callbackLog(container)
        const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
        const { session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
        const { session: gone } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
        await pg.raw(`update payment_session set deleted_at = now() where id = ?`, [gone.id])
        const input = (sessionId: string, orderid: string, verifying: string[]) => ({
          source: "callback" as const, session_id: sessionId, orderid, client_orderid: sessionId, type: "preauth",
          status: "approved", event_key: "", amount: "10.42", currency: "EUR", error_code: null, error_message: null,
          action: "authorized", params: { orderid }, received_at: new Date(), verifying,
        })
        const hostedOnly = [PROVIDER_IDS.hosted]
        const others = [PROVIDER_IDS.auto, PROVIDER_IDS.direct]

        const first = await log.recordSessionCallbacks([
          input(session.id, "s-1", hostedOnly),
          input(session.id, "s-other", others),
          input(session.id, "s-1", hostedOnly),
          input(gone.id, "s-gone", hostedOnly),
          input("payses_NO_SUCH_SESSION", "s-none", [PROVIDER_IDS.hosted, ...others]),
          input(session.id, "s-2", [...others, PROVIDER_IDS.hosted]),
        ])
        expect(first.map((r) => (r ? [r.row.orderid, r.created] : undefined))).toEqual([
          ["s-1", true], undefined, ["s-1", false], undefined, undefined, ["s-2", true],
        ])
        expect(first[2]!.row.id).toBe(first[0]!.row.id)
        // provider and session come from the session itself, the rest from the callback
        const [stored] = await callbackRows(container, { id: first[0]!.row.id })
        expect(stored).toMatchObject({
          provider_id: PROVIDER_IDS.hosted, session_id: session.id, client_orderid: session.id, type: "preauth", status: "approved",
          amount: "10.42", action: "authorized", outcome: "received", params: { orderid: "s-1" },
        })
        expect(first[0]!.row).toMatchObject({ id: stored.id, outcome: "received", provider_id: PROVIDER_IDS.hosted })

        // the gateway re-sending s-1: its row, when a registration that verifies the copy recorded it; not otherwise
        const copies = await log.recordSessionCallbacks([input(session.id, "s-1", hostedOnly), input(session.id, "s-1", others)])
        expect(copies.map((r) => (r ? [r.row.id, r.created] : undefined))).toEqual([[first[0]!.row.id, false], undefined])

        // two statements racing on the same callbacks (two server instances): each is created exactly once
        const race = [input(session.id, "s-race-1", hostedOnly), input(session.id, "s-race-2", hostedOnly)]
        const [one, two] = await Promise.all([log.recordSessionCallbacks(race), log.recordSessionCallbacks([...race].reverse())])
        expect([...one, ...two].filter((r) => r?.created)).toHaveLength(2)
        expect(two.map((r) => r?.row.id).reverse()).toEqual(one.map((r) => r?.row.id))

        const { rows } = await pg.raw(
          `select orderid, count(*)::int as n from payneteasy_callback where client_orderid in (?, ?, 'payses_NO_SUCH_SESSION') group by orderid order by orderid`,
          [session.id, gone.id]
        )
        expect(rows).toEqual([{ orderid: "s-1", n: 1 }, { orderid: "s-2", n: 1 }, { orderid: "s-race-1", n: 1 }, { orderid: "s-race-2", n: 1 }])
      })

      it("a forged control gets 403 and changes nothing; a malformed callback gets 400", async () => {
        const container = getContainer()
        const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
        const orderid = session.data.orderId
        const forged = {
          status: "approved", orderid, client_orderid: session.id, merchant_order: session.id, type: "preauth",
          amount: "10.42", currency: "EUR", control: callbackControl("approved", orderid, session.id, "not-the-merchant-key"),
        }
        const res = await sendCallback(forged)
        expect(res.status).toBe(403)
        const posted = await fetch(`${backendUrl()}/payneteasy/callback`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(forged).toString(),
        })
        expect(posted.status).toBe(403)
        const { control: _c, ...noControl } = forged
        expect((await sendCallback(noControl)).status).toBe(400)
        expect((await sendReturn(forged)).status).toBe(403)

        expect(await callbackRows(container, { client_orderid: session.id })).toHaveLength(0)
        expect((await sessionNow(container, session.id)).status).toBe("pending")
        expect(await ordersForCart(container, cart.id)).toHaveLength(0)
        expect(await paymentsForSession(container, session.id)).toHaveLength(0)
      })

      it("a callback for an unknown order: genuine → 200 and, being approved, flagged for a person; unverifiable → 404", async () => {
        const container = getContainer()
        const key = DEFAULT_SANDBOX_MERCHANT.controlKey
        const genuine = {
          status: "approved", orderid: "990001", client_orderid: "payses_01UNKNOWNSESSION0000000000", type: "sale",
          amount: "5.00", currency: "EUR", control: callbackControl("approved", "990001", "payses_01UNKNOWNSESSION0000000000", key),
          // a field the control does not cover, with a character Postgres cannot store: recorded without it
          descriptor: "Shop\u0000Name",
        }
        expect((await sendCallback(genuine)).status).toBe(200)
        const row = await waitFor("unknown-order callback processed", async () => {
          const rows = await callbackRows(container, { orderid: "990001" })
          return rows[0]?.outcome !== "received" ? rows[0] : false
        })
        // An approved sale for a session Medusa does not have: the shopper may be charged with no order.
        expect(row.outcome).toBe("flagged")
        expect(row.outcome_detail).toMatch(/person/)
        expect(row.params.descriptor).toBe("ShopName")

        const foreign = { ...genuine, client_orderid: "shop-order-77", control: callbackControl("approved", "990001", "shop-order-77", key) }
        expect((await sendCallback(foreign)).status).toBe(404)
        expect(await callbackRows(container, { client_orderid: "shop-order-77" })).toHaveLength(0)
      })
    })

    describe("outcomes", () => {
      it("a shopper who never returns still gets an order (sale captured by the callback)", async () => {
        const container = getContainer()
        const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.auto)
        await payHostedPage(session.data.redirectUrl, CARD)
        const [orderId] = await waitFor("order made by the callback", async () => {
          const ids = await ordersForCart(container, cart.id)
          return ids.length ? ids : false
        })
        const row = await waitForProcessedCallback(container, session.id, "sale")
        expect(row.outcome_detail).toMatch(/^authorized/)
        const payments = await paymentsForSession(container, session.id)
        expect(payments).toHaveLength(1)
        expect(payments[0].captures).toHaveLength(1)
        expect(payments[0].captured_at).toBeTruthy()
        const { data } = await api.get(`/admin/orders/${orderId}?fields=id,payment_status`, admin)
        expect(data.order.payment_status).toBe("captured")
        // The capture happened before the order existed; the order must still show it as paid, once.
        const money = await waitFor("the capture on the order", async () => {
          const m = await orderMoney(container, orderId)
          return m.transactions.length ? m : false
        })
        expect(money.transactions).toHaveLength(1)
        expect(money.paidTotal).toBe(10.42)
      })

      it("a declined callback marks the payment session failed with the gateway's reason", async () => {
        const container = getContainer()
        const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
        await payHostedPage(session.data.redirectUrl, DECLINED_CARD)
        const row = await waitForProcessedCallback(container, session.id, "preauth")
        expect(row.status).toBe("declined")
        expect(row.outcome_detail).toMatch(/^failed/)
        const after = await sessionNow(container, session.id)
        expect(after.status).toBe("error")
        expect((after.data as any).error.message).toBeTruthy()
        expect(row.outcome_detail).toContain((after.data as any).error.message)
        expect(await ordersForCart(container, cart.id)).toHaveLength(0)
        expect(await paymentsForSession(container, session.id)).toHaveLength(0)
      })

      it("a chargeback callback, once STATUS confirms its type and amount, is recorded in the log and on the order and announced once", async () => {
        const container = getContainer()
        const events = watchGatewayEvents(container)
        try {
          const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.auto)
          await payHostedPage(session.data.redirectUrl, CARD)
          await waitForProcessedCallback(container, session.id, "sale")
          const [orderId] = await ordersForCart(container, cart.id)
          expect(typeof orderId).toBe("string")

          const gatewayOrder = onlyGatewayOrder(sandbox(), session.id)
          const chargeback = sandbox().control.chargeback(gatewayOrder.orderid)
          const serial = chargeback.transactions[chargeback.transactions.length - 1].serial
          const row = await waitForProcessedCallback(container, session.id, "chargeback")
          expect(row.status).toBe("approved")
          expect(row.outcome).toBe("processed")
          expect(row.amount).toBe("10.42")
          expect(row.outcome_detail).toMatch(/confirmed by STATUS/)

          const order = await container.resolve(Modules.ORDER).retrieveOrder(orderId, { select: ["id", "metadata"] })
          expect((order.metadata as any)?.payneteasy_events).toEqual([
            expect.objectContaining({ callback_id: row.id, type: "chargeback", status: "approved", amount: "10.42", serial, confirmed: true }),
          ])
          // Recording moved no money in Medusa.
          const [payment] = await paymentsForSession(container, session.id)
          expect(payment.refunds ?? []).toHaveLength(0)
          await waitFor("the gateway event", async () => events.list.length > 0)
          expect(events.list).toEqual([
            expect.objectContaining({ callback_id: row.id, type: "chargeback", status: "approved", amount: "10.42", serial, order_id: orderId, confirmed: true }),
          ])

          // The same genuine chargeback callback replayed with another amount (a new event key): STATUS shows no
          // such chargeback, so it stays in the log as unconfirmed and reaches neither the order nor the event bus.
          const sent = sandbox().control.callbacks().find((c) => c.clientOrderId === session.id && c.type === "chargeback")!
          const replay = new URL(sent.url)
          replay.searchParams.set("amount", "3.00")
          expect((await fetch(replay, { redirect: "manual" })).status).toBe(200)
          const replayed = await waitFor("the replayed chargeback processed", async () => {
            const rows = await callbackRows(container, { client_orderid: session.id, type: "chargeback", amount: "3.00" })
            return rows[0] && rows[0].outcome !== "received" ? rows[0] : false
          })
          expect(replayed.outcome).toBe("ignored")
          expect(replayed.outcome_detail).toMatch(/^not confirmed by STATUS/)
          const after = await container.resolve(Modules.ORDER).retrieveOrder(orderId, { select: ["id", "metadata"] })
          expect((after.metadata as any)?.payneteasy_events).toHaveLength(1)
          expect(events.list).toHaveLength(1)
        } finally {
          events.stop()
        }
      })

      it("a genuine callback replayed as an approved chargeback of another amount changes no order and emits no event", async () => {
        const container = getContainer()
        const events = watchGatewayEvents(container)
        try {
          const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.auto)
          await payHostedPage(session.data.redirectUrl, CARD)
          await waitForProcessedCallback(container, session.id, "sale")
          const [orderId] = await ordersForCart(container, cart.id)
          expect(typeof orderId).toBe("string")
          const before = await container.resolve(Modules.ORDER).retrieveOrder(orderId, { select: ["id", "metadata"] })
          const paymentMetadata = async () => {
            const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
              entity: "payment", fields: ["id", "metadata"], filters: { payment_session_id: session.id },
            })
            expect(data).toHaveLength(1)
            return (data[0] as any).metadata ?? null
          }
          const paymentBefore = await paymentMetadata()

          // Anyone who saw the sale's callback URL: same status / orderid / client_orderid, so the control verifies.
          const genuine = sandbox().control.callbacks().find((c) => c.clientOrderId === session.id && c.type === "sale")!
          const forged = new URL(genuine.url)
          forged.searchParams.set("type", "chargeback")
          forged.searchParams.set("amount", "999.99")
          expect((await fetch(forged, { redirect: "manual" })).status).toBe(200)
          const row = await waitFor("the forged chargeback processed", async () => {
            const rows = await callbackRows(container, { client_orderid: session.id, type: "chargeback" })
            return rows[0] && rows[0].outcome !== "received" ? rows[0] : false
          })
          expect(row.outcome).toBe("ignored")
          expect(row.outcome_detail).toMatch(/^not confirmed by STATUS: STATUS shows no unrecorded chargeback approved of 999.99/)

          const after = await container.resolve(Modules.ORDER).retrieveOrder(orderId, { select: ["id", "metadata"] })
          expect(after.metadata ?? null).toEqual(before.metadata ?? null)
          expect((after.metadata as any)?.payneteasy_events).toBeUndefined()
          expect(await paymentMetadata()).toEqual(paymentBefore)
          const [paymentAfter] = await paymentsForSession(container, session.id)
          expect(paymentAfter.refunds ?? []).toHaveLength(0)
          // A genuine event processed after the forged one is announced, so the bus was being heard all along.
          sandbox().control.chargeback(onlyGatewayOrder(sandbox(), session.id).orderid, "1.00")
          await waitFor("the real chargeback's event", async () => events.list.length > 0)
          expect(events.list.map((e) => [e.type, e.amount])).toEqual([["chargeback", "1.00"]])
        } finally {
          events.stop()
        }
      })

      it("with callbacks switched off, reconciliation alone brings the payment to its final state", async () => {
        const container = getContainer()
        sandbox().control.addFault({ kind: "callback-off" })
        const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
        await payHostedPage(session.data.redirectUrl, CARD)
        const gw = await sandbox().control.waitForOutcome(onlyGatewayOrder(sandbox(), session.id).orderid)
        expect(gw.status).toBe("approved")

        // Each tick checks only what is due; look a little into the future so the first check (3–5 s) is due now.
        const ahead = () => new Date(Date.now() + 6_000)
        const [orderId] = await waitFor("order made by reconciliation", async () => {
          await reconcileTick(container, { now: ahead })
          const ids = await ordersForCart(container, cart.id)
          return ids.length ? ids : false
        })
        expect(await ordersForCart(container, cart.id)).toEqual([orderId])
        // (The scheduled job may have run the check concurrently; its bookkeeping lands right after the order.)
        await waitFor("reconciliation row marked final", async () => {
          const [row] = await callbackLog(container).listPaynetEasyReconciliations({ session_id: session.id })
          return row?.state === "final"
        })
        expect(await callbackRows(container, { client_orderid: session.id, source: "callback" })).toHaveLength(0)
        expect(sandbox().control.callbacks().filter((c) => c.clientOrderId === session.id && c.outcome === "sent")).toHaveLength(0)
        expect(await paymentsForSession(container, session.id)).toHaveLength(1)
      })

      it("a callback recorded but never processed (the instance died) is processed by the reconciliation tick", async () => {
        const container = getContainer()
        sandbox().control.addFault({ kind: "callback-off" })
        const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
        await payHostedPage(session.data.redirectUrl, CARD)
        const gw = await sandbox().control.waitForOutcome(onlyGatewayOrder(sandbox(), session.id).orderid)
        // What the route would have written just before the process died: the row, but no processing.
        const { row, created } = await callbackLog(container).recordCallback({
          source: "callback", provider_id: PROVIDER_IDS.hosted, session_id: session.id, orderid: gw.orderid,
          client_orderid: session.id, type: "preauth", status: "approved", event_key: "10.42|", amount: "10.42", currency: "EUR",
          error_code: null, error_message: null, action: "authorized", params: {}, received_at: new Date(),
        })
        expect(created).toBe(true)
        const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
        await pg.raw(`update payneteasy_callback set updated_at = now() - interval '5 minutes' where id = ?`, [row.id])

        const processed = await waitFor("stale callback processed", async () => {
          await reconcileTick(container)
          const [again] = await callbackRows(container, { id: row.id })
          return again.outcome === "processed" ? again : false
        })
        expect(processed.outcome_detail).toMatch(/^authorized/)
        expect(await ordersForCart(container, cart.id)).toHaveLength(1)
      })

      it("a payment with no final status after an hour is flagged for a person, and polling stops", async () => {
        const container = getContainer()
        // The shopper opened the hosted page and left: the gateway order stays `processing`.
        const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
        await waitFor("the session is watched", async () => {
          await reconcileTick(container)
          const [row] = await callbackLog(container).listPaynetEasyReconciliations({ session_id: session.id })
          return row ?? false
        })
        const anHourLater = () => new Date(Date.now() + 61 * 60_000)
        const flagged = await waitFor("the watch is flagged", async () => {
          await reconcileTick(container, { now: anHourLater })
          const [row] = await callbackLog(container).listPaynetEasyReconciliations({ session_id: session.id })
          return row.state === "flagged" ? row : false
        })
        expect(flagged.note).toMatch(/account manager/)
        const checks = flagged.checks
        await reconcileTick(container, { now: () => new Date(Date.now() + 2 * 60 * 60_000) })
        const [after] = await callbackLog(container).listPaynetEasyReconciliations({ session_id: session.id })
        expect(after.checks).toBe(checks)
        expect(await ordersForCart(container, cart.id)).toHaveLength(0)
        expect((await sessionNow(container, session.id)).status).toBe("pending")
      })

      it("the scheduled job reconciles on its own (no callback, no return, nobody calls reconcile)", async () => {
        const container = getContainer()
        sandbox().control.addFault({ kind: "callback-off" })
        const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.auto)
        await payHostedPage(session.data.redirectUrl, CARD)
        const [orderId] = await waitFor(
          "order made by the scheduled reconciliation job",
          async () => {
            const ids = await ordersForCart(container, cart.id)
            return ids.length ? ids : false
          },
          60_000
        )
        expect(await ordersForCart(container, cart.id)).toEqual([orderId])
        // The order is made inside the check; the check's own bookkeeping is written right after it.
        const watch = await waitFor("reconciliation row marked final", async () => {
          const [row] = await callbackLog(container).listPaynetEasyReconciliations({ session_id: session.id })
          return row?.state === "final" ? row : false
        })
        expect(watch.checks).toBeGreaterThanOrEqual(1)
        expect(watch.last_status).toBe("authorized")
        const [payment] = await paymentsForSession(container, session.id)
        expect(payment.captures).toHaveLength(1)
      })
    })

    describe("3-D Secure uploads (direct flow)", () => {
      async function challengedSession() {
        const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.direct)
        const res = await api
          .post(
            `/store/payneteasy/payment-sessions/${session.id}/card`,
            { card: { number: CARD.number, cvv: "321", expMonth: "12", expYear: "2030", holder: "Test Shopper" } },
            storeHeaders(eur)
          )
          .catch((e: any) => e.response)
        expect(res.status).toBe(200)
        expect(res.data.payment_session.status).toBe("requires_more")
        return { cart, session: res.data.payment_session }
      }

      it("method result then CRes reach the sandbox and the transaction is approved", async () => {
        const { cart, session } = await challengedSession()
        const method = await api.post(
          `/store/payneteasy/3ds/${session.id}/method`,
          { threeDSCompInd: "Y", browser: { browserLanguage: "de-DE", browserColorDepth: 24, browserJavaEnabled: false } },
          storeHeaders(eur)
        )
        expect(method.status).toBe(200)
        const order = onlyGatewayOrder(sandbox(), session.data.clientOrderId)
        expect(order.threeDS?.methodCompInd).toBe("Y")

        const cres = await api.post(`/store/payneteasy/3ds/${session.id}/cres`, { cRes: "eyJ0cmFuc1N0YXR1cyI6IlkifQ" }, storeHeaders(eur))
        expect(cres.status).toBe(200)
        expect(cres.data.payment_session.status).toBe("authorized")
        expect(cres.data.payment_session.data.threeDS).toBeUndefined()
        const after = onlyGatewayOrder(sandbox(), session.data.clientOrderId)
        expect(after.status).toBe("approved")
        expect(after.threeDS?.via).toBe("CRes upload")

        const completed = await completeCartResponse(api, eur, cart.id)
        expect(completed.data.type).toBe("order")
      })

      it("a failing PaRes declines the transaction (402); an upload with nothing pending is refused (409)", async () => {
        const { session } = await challengedSession()
        const pares = await api
          .post(`/store/payneteasy/3ds/${session.id}/pares`, { paRes: "fail", MD: "md-1" }, storeHeaders(eur))
          .catch((e: any) => e.response)
        expect(pares.status).toBe(402)
        expect(pares.data.payment_session.status).toBe("error")
        expect(onlyGatewayOrder(sandbox(), session.data.clientOrderId).status).toBe("declined")

        const again = await api
          .post(`/store/payneteasy/3ds/${session.id}/cres`, { cRes: "late" }, storeHeaders(eur))
          .catch((e: any) => e.response)
        expect(again.status).toBe(409)
        const bad = await api
          .post(`/store/payneteasy/3ds/${session.id}/method`, { threeDSCompInd: "maybe" }, storeHeaders(eur))
          .catch((e: any) => e.response)
        expect(bad.status).toBe(400)
      })
    })
  },
})

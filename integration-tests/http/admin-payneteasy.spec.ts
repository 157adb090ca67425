/**
 * The dashboard's API (/admin/payneteasy/*) against a real Medusa app, Postgres and the sandbox over HTTP:
 * - every route answers 401 without an admin, and nothing secret (control key) is in any answer;
 * - the order panel shows the gateway's values for an order paid on the hosted page; "check now" asks STATUS and
 *   stores what the gateway said with who asked;
 * - an approved callback for a deleted session, a chargeback and a payment reconciliation gave up on appear in the
 *   attention queue with what to do; marking one handled records who and when (once), and moves it out of the
 *   default list;
 * - the callback log filters and paginates, and refuses bad queries with a 400 naming the field;
 * - the connection check reports each registered provider (login masked, no key) and says the credentials work.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { DEFAULT_SANDBOX_MERCHANT, payHostedPage } from "../../src/sandbox"
import { callbackControl } from "../../src/gateway"
import { backendUrl } from "../helpers/backend-url"
import { TEST_APP_DIR } from "../helpers/paths"
import { PROVIDER_IDS } from "../helpers/provider-options"
import { useSandbox } from "../helpers/sandbox"
import { checkoutToPaymentSession, createAdminUser, seedStore, storeHeaders, type AdminAuth, type StoreFixture } from "../helpers/store"
import { callbackLog, callbackRows, onlyGatewayOrder, ordersForCart, waitFor } from "../helpers/inspect"
import { reconcileTick } from "../helpers/reconcile-tick"

jest.setTimeout(240_000)

const sandbox = useSandbox()
const CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Test Shopper" }
const SECRET = DEFAULT_SANDBOX_MERCHANT.controlKey

const noSecrets = (body: unknown) => {
  const text = JSON.stringify(body)
  expect(text).not.toContain(SECRET)
  expect(text).not.toContain("4444555566661111")
  expect(text).not.toMatch(/"control"\s*:/)
}

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let admin: AdminAuth
    let eur: StoreFixture
    const get = (url: string, auth = true) => api.get(url, auth ? admin : undefined).catch((e: any) => e.response)
    const post = (url: string, body: unknown = {}, auth = true) => api.post(url, body, auth ? admin : undefined).catch((e: any) => e.response)

    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      eur = await seedStore(getContainer(), { currency: "eur", unitPrice: "10.42" })
    })

    async function paidOrder(container: MedusaContainer, provider: string = PROVIDER_IDS.auto) {
      const { cart, session } = await checkoutToPaymentSession(api, eur, provider)
      await payHostedPage(session.data.redirectUrl, CARD)
      const [orderId] = await waitFor("the order made by the callback", async () => {
        const ids = await ordersForCart(container, cart.id)
        return ids.length ? ids : false
      })
      return { orderId, session, orderid: onlyGatewayOrder(sandbox(), session.id).orderid as string }
    }

    it("every admin route answers 401 without an admin session or token", async () => {
      const routes: Array<[string, string]> = [
        ["get", "/admin/payneteasy/orders/order_x"],
        ["post", "/admin/payneteasy/orders/order_x/check"],
        ["get", "/admin/payneteasy/callbacks"],
        ["get", "/admin/payneteasy/attention"],
        ["post", "/admin/payneteasy/attention/pnecb_x/handled"],
        ["post", "/admin/payneteasy/doctor"],
      ]
      for (const [method, url] of routes) {
        const res = method === "get" ? await get(url, false) : await post(url, {}, false)
        expect([url, res.status]).toEqual([url, 401])
      }
      const requests = sandbox().control.requests()
      expect(requests.STATUS ?? 0).toBe(0) // nothing reached the gateway
    })

    it("order panel: the gateway's values for a hosted-page order; check now asks STATUS and stores the answer with who asked", async () => {
      const container = getContainer()
      const { orderId, session, orderid } = await paidOrder(container)
      await waitFor("the callback processed", async () => {
        const [r] = await callbackRows(container, { client_orderid: session.id, source: "callback" })
        return r?.outcome === "processed" ? r : false
      })

      const res = await get(`/admin/payneteasy/orders/${orderId}`)
      expect(res.status).toBe(200)
      const panel = res.data.order
      expect(panel).toMatchObject({ order_id: orderId, is_payneteasy: true })
      expect(panel.sessions).toHaveLength(1)
      const s = panel.sessions[0]
      expect(s).toMatchObject({
        session_id: session.id, provider_id: PROVIDER_IDS.auto, client_orderid: session.id, gateway_order_id: orderid,
        flow: "hosted", transaction_type: "sale", amount: "10.42", currency: "EUR", transactions: [], last_checked_at: null,
      })
      expect(s.callbacks).toEqual(expect.arrayContaining([
        expect.objectContaining({ source: "callback", type: "sale", status: "approved", amount: "10.42", outcome: "processed" }),
      ]))
      expect(s.later_events).toEqual([])
      // How it was paid, 3-D Secure as far as a hosted payment can say, the money at a glance.
      expect(s).toMatchObject({ kind: "hosted", three_ds: { state: "hosted_page" } })
      expect(s.activity.map((a: any) => [a.kind, a.origin, a.amount, a.status])).toEqual([["sale", "checkout", "10.42", "approved"]])
      expect(panel.summary).toEqual([
        { currency: "EUR", authorized: "10.42", captured: "10.42", refunded: "0.00", charged_back: "0.00", left_to_capture: "0.00", pending: "0.00" },
      ])
      noSecrets(res.data)

      const before = sandbox().control.requests().STATUS ?? 0
      const checked = await post(`/admin/payneteasy/orders/${orderId}/check`)
      expect(checked.status).toBe(200)
      expect(checked.data.check).toEqual({ checked: 1, errors: [] })
      expect((sandbox().control.requests().STATUS ?? 0) - before).toBe(1)
      const t = checked.data.order.sessions[0].transactions
      expect(t).toEqual([expect.objectContaining({ transaction_type: "sale", status: "approved", amount: "10.42", currency: "EUR", checked_by: admin.email })])
      expect(checked.data.order.sessions[0].last_checked_at).toEqual(t[0].checked_at)
      // Stored: a plain GET shows it without asking the gateway again.
      const again = await get(`/admin/payneteasy/orders/${orderId}`)
      expect(again.data.order.sessions[0].transactions).toEqual(t)
      expect(sandbox().control.requests().STATUS ?? 0).toBe(before + 1)

      expect((await get(`/admin/payneteasy/orders/order_does_not_exist`)).status).toBe(404)
      expect((await post(`/admin/payneteasy/orders/order_does_not_exist/check`)).status).toBe(404)
    })

    it("attention: an approved payment for a deleted session and a chargeback, each with what to do; marked handled once, with who and when", async () => {
      const container = getContainer()
      // 1) Approved callback for a session deleted after a cart change (the shopper paid on a page left open), whose
      // callback does not carry our tag (an order from before the tag, or another shop on the account): not given back
      // by itself (core/callbacks/orphaned-payment.ts), so a person must act.
      sandbox().control.addFault({ kind: "callback-off" })
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.auto)
      await api.post(`/store/carts/${cart.id}/line-items`, { variant_id: eur.variantId, quantity: 1 }, storeHeaders(eur))
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      expect((await query.graph({ entity: "payment_session", fields: ["id"], filters: { id: session.id } })).data).toHaveLength(0)
      await payHostedPage(session.data.redirectUrl, CARD)
      const gateway = onlyGatewayOrder(sandbox(), session.id)
      const approved = await sandbox().control.waitForOutcome(gateway.orderid)
      sandbox().control.clearFaults()
      const untagged = new URL(`${backendUrl()}/payneteasy/callback`)
      for (const [k, v] of Object.entries({
        status: "approved", merchant_order: session.id, client_orderid: session.id, orderid: gateway.orderid, type: "sale",
        amount: approved.initialAmount, currency: "EUR", control: callbackControl("approved", gateway.orderid, session.id, DEFAULT_SANDBOX_MERCHANT.controlKey),
      })) untagged.searchParams.set(k, v)
      expect((await fetch(untagged)).status).toBe(200)
      const flagged = await waitFor("the flagged callback", async () => {
        const [r] = await callbackRows(container, { client_orderid: session.id, source: "callback" })
        return r?.outcome === "flagged" ? r : false
      })

      // 2) A chargeback on a paid order.
      const paid = await paidOrder(container)
      sandbox().control.chargeback(paid.orderid, "4.00")
      const chargeback = await waitFor("the chargeback callback processed", async () => {
        const [r] = await callbackRows(container, { client_orderid: paid.session.id, type: "chargeback" })
        return r && r.outcome !== "received" ? r : false
      })

      const list = await get("/admin/payneteasy/attention")
      expect(list.status).toBe(200)
      const byId = new Map(list.data.items.map((i: any) => [i.id, i]))
      expect(byId.get(flagged.id)).toMatchObject({
        kind: "paid_without_order", orderid: flagged.orderid, client_orderid: session.id, amount: "10.42", handled: null,
        what_to_do: expect.stringMatching(/Refund or void/),
      })
      expect(byId.get(chargeback.id)).toMatchObject({
        kind: "chargeback", order_id: paid.orderId, what_to_do: expect.stringMatching(/dispute/), handled: null,
      })
      // with its amount (issue 35): what the bank took back, in the title too
      expect(byId.get(chargeback.id)).toMatchObject({ amount: chargeback.amount, currency: "EUR", title: expect.stringContaining(`${chargeback.amount} EUR`) })
      noSecrets(list.data)

      // The order panel shows the chargeback as a later event with a warning.
      const panel = (await get(`/admin/payneteasy/orders/${paid.orderId}`)).data.order
      expect(panel.sessions[0].later_events).toEqual([
        expect.objectContaining({ type: "chargeback", amount: "4.00", outside_medusa: true, warning: expect.stringMatching(/back office/) }),
      ])
      expect(panel.warnings).toHaveLength(1)
      expect(panel.summary[0]).toMatchObject({ captured: "10.42", charged_back: "4.00" })
      expect(panel.sessions[0].activity.map((a: any) => `${a.kind}:${a.origin}`)).toEqual(["sale:checkout", "chargeback:gateway"])

      // Mark the flagged payment handled: who and when, once.
      const handled = await post(`/admin/payneteasy/attention/${flagged.id}/handled`, { note: "refunded in the back office" })
      expect(handled.status).toBe(200)
      expect(handled.data.item.handled).toMatchObject({ by: admin.userId, by_email: admin.email, note: "refunded in the back office" })
      const at = handled.data.item.handled.at
      expect(Math.abs(Date.parse(at) - Date.now())).toBeLessThan(60_000)
      const twice = await post(`/admin/payneteasy/attention/${flagged.id}/handled`, { note: "again" })
      expect(twice.data.item.handled).toMatchObject({ at, note: "refunded in the back office" })

      const open = await get("/admin/payneteasy/attention")
      expect(open.data.items.map((i: any) => i.id)).not.toContain(flagged.id)
      expect(open.data.items.map((i: any) => i.id)).toContain(chargeback.id)
      const done = await get("/admin/payneteasy/attention?handled=true")
      expect(done.data.items.map((i: any) => i.id)).toEqual([flagged.id])
      expect(done.data.count).toBe(1)

      expect((await post(`/admin/payneteasy/attention/pnecb_nope/handled`)).status).toBe(404)
      const bad = await post(`/admin/payneteasy/attention/${chargeback.id}/handled`, { note: 42 })
      expect(bad.status).toBe(400)
      expect(JSON.stringify(bad.data)).toMatch(/note/)
      expect((await get("/admin/payneteasy/attention?handled=maybe")).status).toBe(400)
    })

    it("disputes (issue 51): every kind recorded once on the order, confirmed by STATUS, duplicated and out-of-order callbacks included; in the activity, the attention queue with a deadline, and the money", async () => {
      const container = getContainer()
      const paid = await paidOrder(container)
      const control = sandbox().control
      const sid = paid.session.id
      control.addFault({ kind: "callback-duplicate", operation: "CHARGEBACK", times: 1 })
      control.dispute(paid.orderid, "retrieval_request", { reasonCode: "RR-28" }) // its callback sent twice
      control.dispute(paid.orderid, "fraud_marker")
      // the chargeback's callback held back until the reversal's is delivered: the reversal arrives first
      control.addFault({ kind: "callback-out-of-order", operation: "CHARGEBACK", times: 1, holdMs: 5000 })
      control.dispute(paid.orderid, "chargeback", { amount: "4.00", reasonCode: "13.1" })
      control.dispute(paid.orderid, "chargeback_reversal", { amount: "4.00" })
      control.dispute(paid.orderid, "second_chargeback", { amount: "4.00" })
      const TYPES = ["retrieval_request", "fraud", "chargeback", "chargeback_reversal", "second_chargeback"]
      const rows = await waitFor("every dispute's callback processed", async () => {
        const all = (await callbackRows(container, { client_orderid: sid })).filter((r: any) => TYPES.includes(r.type))
        return all.length === TYPES.length && all.every((r: any) => r.outcome !== "received") ? all : false
      }, 60_000)
      control.clearFaults()
      const sent = control.callbacks().filter((c) => c.clientOrderId === sid && c.type !== "sale")
      expect(sent.filter((c) => c.type === "retrieval_request").length).toBe(2)
      expect(sent.map((c) => c.type).indexOf("chargeback_reversal")).toBeLessThan(sent.map((c) => c.type).indexOf("chargeback"))
      // recorded once each, every one confirmed by STATUS
      expect(rows.map((r: any) => [r.type, r.outcome])).toEqual(expect.arrayContaining(TYPES.map((t) => [t, "processed"])))
      expect(rows).toHaveLength(TYPES.length)
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data: [order] } = await query.graph({ entity: "order", fields: ["id", "metadata"], filters: { id: paid.orderId } })
      const entries = ((order as any).metadata?.payneteasy_events ?? []) as any[]
      expect(entries.map((e) => e.type).sort()).toEqual([...TYPES].sort())
      expect(entries.find((e) => e.type === "retrieval_request")).toMatchObject({ reason_code: "RR-28", confirmed: true, processed_at: expect.any(String) })
      expect(entries.find((e) => e.type === "fraud")).toMatchObject({ reason_code: "TC40-6" })

      // the attention queue: one item per dispute, with what to do and by when
      const list = await get("/admin/payneteasy/attention")
      const mine = list.data.items.filter((i: any) => rows.some((r: any) => r.id === i.id))
      const KINDS: Record<string, [string, number]> = {
        retrieval_request: ["retrieval_request", 10], fraud: ["fraud_marker", 3], chargeback: ["chargeback", 30],
        chargeback_reversal: ["chargeback_reversal", 14], second_chargeback: ["second_chargeback", 10],
      }
      expect(mine).toHaveLength(TYPES.length)
      for (const r of rows) {
        const item = mine.find((i: any) => i.id === r.id)
        const [kind, days] = KINDS[r.type]
        expect(item).toMatchObject({ kind, order_id: paid.orderId, what_to_do: expect.stringMatching(/PaynetEasy back office|settlement/) })
        expect(Date.parse(item.deadline) - Date.parse(item.occurred_at)).toBe(days * 86_400_000)
      }
      expect(mine.find((i: any) => i.kind === "chargeback")).toMatchObject({ reason_code: "13.1", amount: "4.00" })

      // the order panel: each kind in the activity with its reason code and deadline; the money nets to one chargeback
      const panel = (await get(`/admin/payneteasy/orders/${paid.orderId}`)).data.order
      const activity = panel.sessions[0].activity
      expect(activity.map((a: any) => a.kind).sort()).toEqual(["sale", ...Object.values(KINDS).map(([k]) => k)].sort())
      for (const a of activity.filter((x: any) => x.origin === "gateway")) {
        expect(a).toMatchObject({ confirmed_by_gateway: true, reason_code: expect.any(String) })
        expect(Date.parse(a.deadline) - Date.parse(a.at)).toBe(KINDS[a.gateway_type][1] * 86_400_000)
      }
      expect(panel.summary[0]).toMatchObject({ captured: "10.42", refunded: "0.00", charged_back: "4.00" })
      noSecrets(panel)
    })

    it("attention: a payment reconciliation gave up on (no final status after an hour) is listed with what to do", async () => {
      const container = getContainer()
      // The shopper opened the hosted page and left: the gateway order stays `processing`.
      const { session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
      await waitFor("the session is watched", async () => {
        await reconcileTick(container)
        const [row] = await callbackLog(container).listPaynetEasyReconciliations({ session_id: session.id })
        return row ?? false
      })
      const watch = await waitFor("the watch is flagged", async () => {
        await reconcileTick(container, { now: () => new Date(Date.now() + 61 * 60_000) })
        const [row] = await callbackLog(container).listPaynetEasyReconciliations({ session_id: session.id })
        return row.state === "flagged" ? row : false
      })
      const list = await get("/admin/payneteasy/attention?handled=all")
      const item = list.data.items.find((i: any) => i.id === watch.id)
      expect(item).toMatchObject({
        kind: "reconciliation_gave_up", session_id: session.id, detail: watch.note,
        what_to_do: expect.stringMatching(/PaynetEasy support/), handled: null,
      })
    })

    it("attention: a payment still unresolved past the reconciliation window while reconciliation has not flagged it (the job stalled) is listed; marked handled with a note", async () => {
      const container = getContainer()
      const { session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
      const watch = await waitFor("the session is watched", async () => {
        await reconcileTick(container)
        const [row] = await callbackLog(container).listPaynetEasyReconciliations({ session_id: session.id })
        return row ?? false
      })
      const before = (await get("/admin/payneteasy/attention?handled=all&limit=100")).data.items
      expect(before.map((i: any) => i.id)).not.toContain(watch.id) // inside the window: reconciliation is on it
      // the job stopped running: the watch is still pending 70 minutes after it started
      await callbackLog(container).updatePaynetEasyReconciliations({ id: watch.id, started_at: new Date(Date.now() - 70 * 60_000) })
      const list = await get("/admin/payneteasy/attention?limit=100")
      const item = list.data.items.find((i: any) => i.id === watch.id)
      expect(item).toMatchObject({
        kind: "payment_unresolved", session_id: session.id, title: expect.stringMatching(/unresolved after 60 minutes/),
        what_to_do: expect.stringMatching(/reconcile job/), handled: null,
      })
      const handled = await post(`/admin/payneteasy/attention/${watch.id}/handled`, { note: "restarted the worker" })
      expect(handled.data.item).toMatchObject({ kind: "payment_unresolved", handled: { by: admin.userId, note: "restarted the worker" } })
      const tooLong = await post(`/admin/payneteasy/attention/${watch.id}/handled`, { note: "x".repeat(501) })
      expect(tooLong.status).toBe(400)
    })

    it("callback log: filters, pagination, scrubbed parameters; bad queries are a 400 naming the field", async () => {
      const container = getContainer()
      const a = await paidOrder(container)
      const b = await paidOrder(container)
      await waitFor("both callbacks processed", async () => {
        const rows = await callbackRows(container, { client_orderid: [a.session.id, b.session.id], source: "callback" })
        return rows.length === 2 && rows.every((r) => r.outcome === "processed")
      })

      const all = await get("/admin/payneteasy/callbacks?source=callback&status=approved&outcome=processed")
      expect(all.status).toBe(200)
      expect(all.data.count).toBe(2)
      const first = await get("/admin/payneteasy/callbacks?source=callback&limit=1&offset=0")
      const second = await get("/admin/payneteasy/callbacks?source=callback&limit=1&offset=1")
      expect(first.data).toMatchObject({ count: 2, limit: 1, offset: 0 })
      expect(first.data.callbacks).toHaveLength(1)
      expect(second.data.callbacks).toHaveLength(1)
      expect(first.data.callbacks[0].id).not.toBe(second.data.callbacks[0].id)
      // newest first
      expect(first.data.callbacks[0].client_orderid).toBe(b.session.id)

      const mine = await get(`/admin/payneteasy/callbacks?order_id=${a.orderId}`)
      expect(mine.data.callbacks.length).toBeGreaterThan(0)
      expect(mine.data.callbacks.every((c: any) => c.client_orderid === a.session.id)).toBe(true)
      const byGateway = await get(`/admin/payneteasy/callbacks?orderid=${b.orderid}&source=callback`)
      expect(byGateway.data.callbacks.map((c: any) => c.client_orderid)).toEqual([b.session.id])
      expect(byGateway.data.callbacks[0].params).toMatchObject({ status: "approved", orderid: b.orderid })
      expect(byGateway.data.callbacks[0].params).not.toHaveProperty("control")
      const future = await get(`/admin/payneteasy/callbacks?received_from=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`)
      expect(future.data).toMatchObject({ count: 0, callbacks: [] })
      noSecrets(all.data)

      for (const [q, field] of [["limit=0", "limit"], ["limit=1000", "limit"], ["outcome=bogus", "outcome"], ["received_from=yesterday", "received_from"]]) {
        const res = await get(`/admin/payneteasy/callbacks?${q}`)
        expect([q, res.status]).toEqual([q, 400])
        expect(JSON.stringify(res.data)).toContain(field)
      }
    })

    it("connection check: each provider with masked login and no key, and the live check says the credentials work", async () => {
      const res = await post("/admin/payneteasy/doctor")
      expect(res.status).toBe(200)
      const providers = res.data.providers
      expect(providers.map((p: any) => p.id)).toEqual([PROVIDER_IDS.auto, PROVIDER_IDS.direct, PROVIDER_IDS.hosted])
      for (const p of providers) {
        expect(p).toMatchObject({
          base_url: sandbox().url, endpoint: { kind: "endpoint", id: "1111" }, rsa_key_loaded: false, problem: null,
          check: { ok: true, verdict: "ok", message: expect.stringMatching(/credentials work|accepted/) },
        })
        expect(p.login_masked).not.toBe(DEFAULT_SANDBOX_MERCHANT.login)
        expect(p.login_masked.length).toBeGreaterThan(0)
      }
      expect(providers.find((p: any) => p.id === PROVIDER_IDS.direct)).toMatchObject({ flow: "direct", capture: "manual" })
      expect(providers.find((p: any) => p.id === PROVIDER_IDS.auto)).toMatchObject({ flow: "hosted", capture: "automatic" })
      noSecrets(res.data)
      expect(JSON.stringify(res.data)).not.toContain(DEFAULT_SANDBOX_MERCHANT.login)

      const one = await post("/admin/payneteasy/doctor", { provider_id: PROVIDER_IDS.direct })
      expect(one.data.providers.map((p: any) => p.id)).toEqual([PROVIDER_IDS.direct])
      expect((await post("/admin/payneteasy/doctor", { provider_id: "pp_payneteasy_nope" })).status).toBe(404)
      const bad = await post("/admin/payneteasy/doctor", { provider_id: "pp_stripe_stripe" })
      expect(bad.status).toBe(400)
      expect(JSON.stringify(bad.data)).toContain("provider_id")
    })
  },
})

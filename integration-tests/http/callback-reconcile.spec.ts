/**
 * Callback log identity and reconciliation corner cases, end to end (real Medusa app + gateway sandbox over HTTP):
 * - two later events of the same type and status on one order (partial returns) are two log rows, not a duplicate;
 * - captures the gateway had not decided when the provider stopped waiting are finished by reconciliation (approved →
 *   the payment's ledger entry is updated; declined → flagged for a person, in the callback log and on the order);
 * - an approved payment for a deleted session is flagged, not ignored;
 * - paid but the cart could not be completed, with callbacks off: reconciliation keeps trying the cart;
 * - a direct session whose card reply and STATUS were both lost is still found and settled;
 * - a tick takes at most CLAIM_LIMIT due watches, however many are due: the rest wait for the next tick.
 * Waiting is by polled condition (bounded); nothing asserts on durations.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { payHostedPage } from "../../src/sandbox"
import { CLAIM_LIMIT } from "../../src/workflows/payneteasy/reconcile"
import { reconcileTick } from "../helpers/reconcile-tick"
import { TEST_APP_DIR } from "../helpers/paths"
import { PROVIDER_IDS } from "../helpers/provider-options"
import { useSandbox } from "../helpers/sandbox"
import {
  addShippingMethod, adminAndEurStore, storeHeaders, checkoutToPaymentSession, type AdminAuth,
  type StoreFixture,
} from "../helpers/store"
import { waitFor, ordersForCart, paymentsForSession, callbackLog, callbackRows, onlyGatewayOrder } from "../helpers/inspect"

jest.setTimeout(240_000)

const sandbox = useSandbox()

const CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Test Shopper" }

/** Each tick checks only what is due; look a little ahead so the first check (3–5 s after the start) is due now. */
const ahead = () => new Date(Date.now() + 6_000)

async function watchRows(container: MedusaContainer, filters: Record<string, unknown>) {
  return (await callbackLog(container).listPaynetEasyReconciliations(filters)) as any[]
}

async function orderEvents(container: MedusaContainer, orderId: string): Promise<any[]> {
  const order = await container.resolve(Modules.ORDER).retrieveOrder(orderId, { select: ["id", "metadata"] })
  return ((order.metadata as any)?.payneteasy_events ?? []) as any[]
}

/** What Medusa records of a payment: its captures, the order's transactions, the collection's totals. */
async function medusaRecord(container: MedusaContainer, paymentId: string, orderId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: [p] } = await query.graph({
    entity: "payment",
    fields: ["id", "captured_at", "captures.id", "captures.amount", "captures.created_at", "payment_collection.status", "payment_collection.captured_amount", "payment_collection.refunded_amount"],
    filters: { id: paymentId },
  })
  const transactions = await container.resolve(Modules.ORDER).listOrderTransactions({ order_id: orderId }, { order: { created_at: "ASC" } })
  return {
    captures: [...(p as any).captures].sort((a: any, b: any) => +new Date(a.created_at) - +new Date(b.created_at)).map((c: any) => ({ id: c.id, amount: Number(c.amount) })),
    capturedAt: (p as any).captured_at ?? null,
    transactions: transactions.map((t: any) => ({ reference: t.reference, reference_id: t.reference_id, amount: Number(t.amount) })),
    collection: { status: (p as any).payment_collection.status, captured_amount: Number((p as any).payment_collection.captured_amount), refunded_amount: Number((p as any).payment_collection.refunded_amount) },
  }
}

async function waitForOrder(container: MedusaContainer, cartId: string, tick = false) {
  const [orderId] = await waitFor("the order", async () => {
    if (tick) await reconcileTick(container, { now: ahead })
    const ids = await ordersForCart(container, cartId)
    return ids.length ? ids : false
  })
  return orderId
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

    it("two partial returns on one order are two log rows, both reflected on the order; a redelivery adds none", async () => {
      const container = getContainer()
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.auto)
      await payHostedPage(session.data.redirectUrl, CARD)
      const orderId = await waitForOrder(container, cart.id)
      const [payment] = await paymentsForSession(container, session.id)

      for (const amount of [3, 2]) {
        const res = await api.post(`/admin/payments/${payment.id}/refund`, { amount }, admin)
        expect(res.status).toBe(200)
      }
      const rows = await waitFor("both reversal callbacks processed", async () => {
        const r = await callbackRows(container, { client_orderid: session.id, source: "callback", type: "reversal" })
        return r.length === 2 && r.every((x) => x.outcome === "processed") ? r : false
      })
      expect(rows.map((r) => r.amount).sort()).toEqual(["2.00", "3.00"])
      expect(rows.every((r) => r.status === "approved")).toBe(true)
      const events = await orderEvents(container, orderId)
      expect(events.filter((e) => e.type === "reversal").map((e) => e.amount).sort()).toEqual(["2.00", "3.00"])

      // The gateway redelivers the second one: still two rows.
      const sent = sandbox()
        .control.callbacks()
        .filter((c) => c.clientOrderId === session.id && c.type === "reversal")
      expect(sent.length).toBeGreaterThanOrEqual(2)
      const again = await fetch(sent[sent.length - 1].url, { redirect: "manual" })
      expect(again.status).toBe(200)
      expect(await callbackRows(container, { client_orderid: session.id, source: "callback", type: "reversal" })).toHaveLength(2)
    })

    it("captures still undecided when the provider stopped waiting: approved later → ledger updated; declined later → flagged", async () => {
      const container = getContainer()
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
      await payHostedPage(session.data.redirectUrl, CARD)
      const orderId = await waitForOrder(container, cart.id)
      const [payment] = await paymentsForSession(container, session.id)
      const orderid = onlyGatewayOrder(sandbox(), session.id).orderid

      // 1) The gateway leaves the capture undecided (status "unknown") beyond the provider's short wait.
      sandbox().control.addFault({ kind: "outcome", status: "unknown", operation: "CAPTURE", times: 1 })
      expect((await api.post(`/admin/payments/${payment.id}/capture`, { amount: 5 }, admin)).status).toBe(200)
      let [after] = await paymentsForSession(container, session.id)
      const first = (after.data as any).captures[0]
      expect(first.status).toBe("unknown")
      const target1 = `capture:${first.id}`

      const watched = await waitFor("the capture is watched and checked once", async () => {
        await reconcileTick(container, { now: ahead })
        const [row] = await watchRows(container, { session_id: session.id, target: target1 })
        return row && row.checks >= 1 ? row : false
      })
      expect(watched.state).toBe("pending")
      expect(watched.payment_id).toBe(payment.id)

      sandbox().control.forceStatus(orderid, "approved")
      const done = await waitFor("the capture's watch is final", async () => {
        await reconcileTick(container, { now: () => new Date(Date.now() + 60_000) })
        const [row] = await watchRows(container, { session_id: session.id, target: target1 })
        return row.state !== "pending" ? row : false
      })
      expect(done.state).toBe("final")
      expect(done.last_status).toBe("approved")
      ;[after] = await paymentsForSession(container, session.id)
      expect((after.data as any).captures[0]).toMatchObject({ id: first.id, status: "approved", pending: false })

      // 2) The next capture is undecided too, and the gateway then declines it: Medusa already shows it captured.
      sandbox().control.addFault({ kind: "outcome", status: "unknown", operation: "CAPTURE", times: 1 })
      expect((await api.post(`/admin/payments/${payment.id}/capture`, { amount: 5.42 }, admin)).status).toBe(200)
      ;[after] = await paymentsForSession(container, session.id)
      const second = (after.data as any).captures[1]
      expect(second.status).toBe("unknown")
      sandbox().control.forceStatus(orderid, "declined", "Capture refused by the acquirer")
      const flagged = await waitFor("the declined capture is flagged", async () => {
        await reconcileTick(container, { now: ahead })
        const [row] = await watchRows(container, { session_id: session.id, target: `capture:${second.id}` })
        return row && row.state !== "pending" ? row : false
      })
      expect(flagged.state).toBe("flagged")
      expect(flagged.last_status).toBe("declined")
      ;[after] = await paymentsForSession(container, session.id)
      expect((after.data as any).captures[1]).toMatchObject({ id: second.id, status: "declined", pending: false })
      expect((after.data as any).captures[0].status).toBe("approved")
      const [logged] = await callbackRows(container, { client_orderid: session.id, source: "reconcile" })
      expect(logged).toMatchObject({ type: "capture", status: "declined", amount: "5.42", outcome: "flagged" })
      const events = await orderEvents(container, orderId)
      expect(events).toContainEqual(expect.objectContaining({ callback_id: logged.id, type: "capture", status: "declined", confirmed: true }))

      // 3) Medusa's record of the declined capture is taken back: no Capture row, no order transaction, the payment
      // not fully captured, the collection authorized again; the order owes the 5.42 and the admin can capture it.
      expect(logged.outcome_detail).toMatch(/taken back/)
      const medusa = await medusaRecord(container, payment.id, orderId)
      expect(medusa.captures).toEqual([{ id: first.id, amount: 5 }])
      expect(medusa.capturedAt).toBeNull()
      expect(medusa.transactions).toEqual([{ reference: "capture", reference_id: first.id, amount: 5 }])
      expect(medusa.collection).toMatchObject({ status: "authorized", captured_amount: 5 })
      const shown = (await api.get(`/admin/orders/${orderId}?fields=payment_status,summary`, admin)).data.order
      expect(shown.payment_status).toBe("partially_captured")
      expect(shown.summary.paid_total).toBe(5)
      // A later tick changes nothing more (the take-back is done once).
      await reconcileTick(container, { now: () => new Date(Date.now() + 120_000) })
      expect(await medusaRecord(container, payment.id, orderId)).toEqual(medusa)

      const again = await api.post(`/admin/payments/${payment.id}/capture`, { amount: 5.42 }, admin)
      expect(again.status).toBe(200)
      const captures = onlyGatewayOrder(sandbox(), session.id).transactions.filter((t: any) => t.type === "capture")
      expect(captures.map((t: any) => t.status)).toEqual(["approved", "declined", "approved"])
      const paid = await medusaRecord(container, payment.id, orderId)
      expect(paid.captures.map((c) => c.amount)).toEqual([5, 5.42])
      expect(paid.collection).toMatchObject({ status: "completed", captured_amount: 10.42 })
    })

    it("a refund still undecided when the provider stopped waiting, declined later: Medusa's Refund and its order transaction are taken back, the admin refunds again", async () => {
      const container = getContainer()
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.auto)
      await payHostedPage(session.data.redirectUrl, CARD)
      const orderId = await waitForOrder(container, cart.id)
      const [payment] = await paymentsForSession(container, session.id)
      const orderid = onlyGatewayOrder(sandbox(), session.id).orderid

      sandbox().control.addFault({ kind: "outcome", status: "unknown", operation: "RETURN", times: 1 })
      expect((await api.post(`/admin/payments/${payment.id}/refund`, { amount: 3 }, admin)).status).toBe(200)
      const [pending] = await paymentsForSession(container, session.id)
      const entry = (pending.data as any).refunds[0]
      expect(entry.status).toBe("unknown")
      sandbox().control.forceStatus(orderid, "declined", "Return refused by the acquirer")
      const flagged = await waitFor("the declined refund is flagged", async () => {
        await reconcileTick(container, { now: ahead })
        const [row] = await watchRows(container, { session_id: session.id, target: `refund:${entry.id}` })
        return row && row.state !== "pending" ? row : false
      })
      expect(flagged).toMatchObject({ state: "flagged", last_status: "declined" })
      const [logged] = await callbackRows(container, { client_orderid: session.id, source: "reconcile" })
      expect(logged).toMatchObject({ type: "reversal", status: "declined", amount: "3.00", outcome: "flagged" })
      expect(logged.outcome_detail).toMatch(/taken back Medusa's Refund/)

      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const refundsOf = async () => (await query.graph({ entity: "refund", fields: ["id", "amount"], filters: { payment_id: payment.id } })).data
      expect(await refundsOf()).toEqual([])
      const transactions = await container.resolve(Modules.ORDER).listOrderTransactions({ order_id: orderId })
      expect(transactions.filter((t: any) => t.reference === "refund")).toEqual([])
      const record = await medusaRecord(container, payment.id, orderId)
      expect(record.collection).toMatchObject({ status: "completed", refunded_amount: 0 })
      const shown = (await api.get(`/admin/orders/${orderId}?fields=payment_status,summary`, admin)).data.order
      expect(shown.payment_status).toBe("captured")
      expect(shown.summary.refunded_total).toBe(0)
      // The refund's credit line stays: the order still owes the shopper the 3.00 the merchant meant to give back.
      expect(shown.summary.pending_difference).toBe(-3)

      const again = await api.post(`/admin/payments/${payment.id}/refund`, { amount: 3 }, admin)
      expect(again.status).toBe(200)
      const returns = onlyGatewayOrder(sandbox(), session.id).transactions.filter((t: any) => t.type === "reversal")
      expect(returns.map((t: any) => t.status)).toEqual(["declined", "approved"])
      expect((await refundsOf()).map((r: any) => Number(r.amount))).toEqual([3])
      expect((await medusaRecord(container, payment.id, orderId)).collection).toMatchObject({ refunded_amount: 3 })
      const settled = (await api.get(`/admin/orders/${orderId}?fields=summary`, admin)).data.order
      expect(settled.summary).toMatchObject({ refunded_total: 3, pending_difference: 0 })
    })

    it.each(["captures it", "cancels again"] as const)("a release (VOID) still undecided when the admin canceled, declined later: Medusa's cancel of the Payment is taken back, the order stays open and the admin %s", async (then) => {
      // Found from outside (stop 60): the cancel answered 202 (order not canceled yet), the gateway then declined the
      // VOID, and Medusa's Payment kept canceled_at: the hold stayed on the shopper's card while Medusa refused both a
      // capture (the payment is canceled) and a real release.
      const container = getContainer()
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
      await payHostedPage(session.data.redirectUrl, CARD)
      const orderId = await waitForOrder(container, cart.id)
      const [payment] = await paymentsForSession(container, session.id)
      const orderid = onlyGatewayOrder(sandbox(), session.id).orderid

      sandbox().control.addFault({ kind: "outcome", status: "unknown", operation: "VOID", times: 1 })
      expect((await api.post(`/admin/orders/${orderId}/cancel`, {}, admin)).status).toBe(202)
      const [canceling] = await paymentsForSession(container, session.id)
      expect(canceling.canceled_at).not.toBeNull()
      sandbox().control.forceStatus(orderid, "declined", "Void refused by the acquirer")
      const flagged = await waitFor("the declined release is flagged", async () => {
        await reconcileTick(container, { now: ahead })
        const rows = await callbackRows(container, { client_orderid: session.id, source: "reconcile" })
        return rows.find((r) => r.type === "void" && r.outcome === "flagged")
      })
      expect(flagged.outcome_detail).toMatch(/taken back Medusa's cancel/)
      const [after] = await paymentsForSession(container, session.id)
      expect(after.canceled_at).toBeNull()
      const shown = (await api.get(`/admin/orders/${orderId}?fields=status,payment_status`, admin)).data.order
      expect(shown).toMatchObject({ status: "pending", payment_status: "authorized" })

      if (then === "captures it") {
        expect((await api.post(`/admin/payments/${payment.id}/capture`, {}, admin)).status).toBe(200)
        const captures = onlyGatewayOrder(sandbox(), session.id).transactions.filter((t: any) => t.type === "capture")
        expect(captures.map((t: any) => t.status)).toEqual(["approved"])
        expect((await medusaRecord(container, payment.id, orderId)).collection).toMatchObject({ captured_amount: 10.42 })
      } else {
        expect((await api.post(`/admin/orders/${orderId}/cancel`, {}, admin)).status).toBe(200)
        const voids = onlyGatewayOrder(sandbox(), session.id).transactions.filter((t: any) => t.type === "void")
        expect(voids.map((t: any) => t.status)).toEqual(["declined", "approved"])
        expect((await api.get(`/admin/orders/${orderId}?fields=status`, admin)).data.order.status).toBe("canceled")
      }
    })

    it("an approved payment for a session deleted after a cart change is given back at the gateway, not ignored, and never an order", async () => {
      const container = getContainer()
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.auto)
      // The shopper changes the cart (Medusa deletes the session) but still pays on the payment page left open.
      await api.post(`/store/carts/${cart.id}/line-items`, { variant_id: eur.variantId, quantity: 1 }, storeHeaders(eur))
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data: left } = await query.graph({ entity: "payment_session", fields: ["id"], filters: { id: session.id } })
      expect(left).toHaveLength(0)
      await payHostedPage(session.data.redirectUrl, CARD)

      const row = await waitFor("the callback processed", async () => {
        const [r] = await callbackRows(container, { client_orderid: session.id, source: "callback" })
        return r && r.outcome !== "received" ? r : false
      })
      expect(row.status).toBe("approved")
      expect(row.type).toBe("sale")
      expect(row.outcome).toBe("processed")
      expect(row.outcome_detail).toMatch(/given back \(voided\) because Medusa had deleted its payment session/)
      expect(onlyGatewayOrder(sandbox(), session.id).transactions.map((t) => `${t.type} ${t.status}`)).toEqual(["sale approved", "void approved"])
      expect(await ordersForCart(container, cart.id)).toHaveLength(0)
    })

    it("authorized but the cart could not be completed, with callbacks off: the watch stays pending and a later tick makes the order", async () => {
      const container = getContainer()
      sandbox().control.addFault({ kind: "callback-off" })
      // No shipping method: cart completion fails after the payment is authorized. A preauth: Medusa's own
      // compensation refunds a *captured* payment when completion fails, but leaves an authorized one as it is.
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted, { shipping: false })
      await payHostedPage(session.data.redirectUrl, CARD)
      await waitFor("the payment made by reconciliation", async () => {
        await reconcileTick(container, { now: ahead })
        return (await paymentsForSession(container, session.id)).length > 0
      })
      const [watch] = await watchRows(container, { session_id: session.id, target: "" })
      expect(await ordersForCart(container, cart.id)).toHaveLength(0)
      expect(watch.state).toBe("pending")

      await addShippingMethod(api, eur, cart.id)
      const orderId = await waitForOrder(container, cart.id, true)
      expect(await ordersForCart(container, cart.id)).toEqual([orderId])
      expect(await paymentsForSession(container, session.id)).toHaveLength(1)
    })

    it("a tick checks at most CLAIM_LIMIT due watches; the others are checked by the next tick", async () => {
      const container = getContainer()
      const knex = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
      const extra = 4
      // Due ten minutes from now, and the ticks below run as of then: the app's own scheduled tick (every 3 s, real
      // time) never finds them due. Watches of sessions that do not exist: no callback or discovery touches them.
      const then = new Date(Date.now() + 10 * 60_000)
      await knex.raw(
        `insert into payneteasy_reconciliation (id, session_id, provider_id, target, state, started_at, next_check_at, checks, created_at, updated_at)
         select 'pnerc_bound' || g, 'payses_BOUND' || lpad(g::text, 3, '0'), ?, '', 'pending', now(), ?, 0, now(), now()
         from generate_series(1, ?) g`,
        [PROVIDER_IDS.hosted, then, CLAIM_LIMIT + extra]
      )
      const checked = async () =>
        (await knex.raw(`select count(*)::int as n from payneteasy_reconciliation where session_id like 'payses_BOUND%' and last_checked_at is not null`)).rows[0].n
      // The scheduled tick may hold the tick lock for a moment: a skipped tick did nothing, so try again (reconcileTick).
      const tick = () => reconcileTick(container, { now: () => new Date(then.getTime() + 1_000) })
      expect(await tick()).toMatchObject({ checked: CLAIM_LIMIT, errors: 0 })
      expect(await checked()).toBe(CLAIM_LIMIT)
      expect(await tick()).toMatchObject({ checked: extra, errors: 0 })
      expect(await checked()).toBe(CLAIM_LIMIT + extra)
    })

    it("a direct session whose card reply and STATUS were both lost answers pending, and is found by client_orderid and settled", async () => {
      const container = getContainer()
      // No callback either (it would settle the session by itself): reconciliation is the only way back.
      sandbox().control.addFault({ kind: "callback-off" })
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.direct)
      sandbox().control.addFault({ kind: "response-lost", operation: "SALE", times: 1 })
      sandbox().control.addFault({ kind: "response-lost", operation: "PREAUTH", times: 1 })
      const statusDown = sandbox().control.addFault({ kind: "http-500", operation: "STATUS" })
      const res = await api
        .post(
          `/store/payneteasy/payment-sessions/${session.id}/card`,
          { card: { number: CARD.number, cvv: "123", expMonth: "12", expYear: "2030", holder: "Test Shopper" } },
          storeHeaders(eur)
        )
        .catch((e: any) => e.response)
      // The card may have been charged: not an error but a pending attempt, kept under its own client_orderid with no
      // gateway order id (the lost reply had it), for reconciliation to settle.
      expect(res.status).toBe(200)
      expect(res.data.payment_session.status).toBe("pending")
      sandbox().control.removeFault(statusDown.id)
      const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
        entity: "payment_session", fields: ["id", "status", "data"], filters: { id: session.id },
      })
      expect(data[0]).toMatchObject({ status: "pending", data: { gatewayStatus: "unknown", attempt: 1 } })
      expect((data[0] as any).data.orderId || undefined).toBeUndefined()
      const gw = await sandbox().control.waitForOutcome(onlyGatewayOrder(sandbox(), session.id).orderid)
      expect(gw.status).toBe("approved")

      const orderId = await waitForOrder(container, cart.id, true)
      expect(await ordersForCart(container, cart.id)).toEqual([orderId])
      expect(await paymentsForSession(container, session.id)).toHaveLength(1)
    })
  },
})

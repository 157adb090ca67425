/**
 * A payment for a payment session Medusa had deleted is given back, once (core/callbacks/orphaned-payment.ts).
 *
 * How it happens: a storefront makes a second session on the same payment collection (a double click, a second tab,
 * the cart changed), Medusa deletes the first, and the shopper still pays on the first one's hosted page. No order can
 * ever be made from that payment. What must hold, on the real app with the sandbox over HTTP:
 * - the approved sale (automatic capture) or preauth (manual) is voided at the gateway, and a settled sale, which the
 *   gateway will not void, returned in full: exactly one give-back transaction on that gateway order, and the live
 *   session's order untouched;
 * - double submits change nothing: the same approved callback delivered again and again, one after the other and at
 *   once, with the tick running beside them, still make one give-back;
 * - a lost or an unreadable reply to the give-back is settled by STATUS on the same order, never by a second one; a
 *   STATUS that cannot be read fails the row without moving money, and the reconciliation tick's retry gives back once;
 * - a session Medusa had authorized before deleting it (a Payment holds the money) is left to a person;
 * - a callback that does not carry our tag (an order this store did not register, or a forged tag) moves no money
 *   and is flagged for a person, as before.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { callbackControl } from "../../src/gateway"
import { DEFAULT_SANDBOX_MERCHANT, payHostedPage } from "../../src/sandbox"
import { OWNER_PARAM } from "../../src/core/checkout/callback-owner"
import { reconcileTick } from "../helpers/reconcile-tick"
import { TEST_APP_DIR } from "../helpers/paths"
import { PROVIDER_IDS } from "../helpers/provider-options"
import { useSandbox } from "../helpers/sandbox"
import { checkoutToPaymentSession, initiatePaymentSession, payerFromCart, seedStore, type StoreFixture } from "../helpers/store"
import { callbackRows, waitFor } from "../helpers/inspect"

jest.setTimeout(240_000)

const sandbox = useSandbox()
const CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Stale Page Shopper" }
const GIVE_BACK = new Set(["void", "return", "reversal"])

/** The gateway's give-back transactions on an order (void, return, reversal), approved or not. */
const giveBacks = (orderid: string) => (sandbox().control.transaction(orderid)?.transactions ?? []).filter((t) => GIVE_BACK.has(t.type))

/** A GET to the callback address the provider registered for the order (its tag included), with the gateway's fields. */
async function deliver(orderid: string, extra: Record<string, string> = {}, method: "GET" | "POST" = "GET"): Promise<number> {
  const order = sandbox().control.transaction(orderid)!
  const url = new URL(order.urls.serverCallback!)
  const tx = order.transactions.find((t) => t.type === "sale" || t.type === "preauth")!
  const params: Record<string, string> = {
    status: tx.status, merchant_order: order.clientOrderId, client_orderid: order.clientOrderId, orderid, type: tx.type,
    amount: order.initialAmount, currency: "EUR",
    control: callbackControl(tx.status, orderid, order.clientOrderId, DEFAULT_SANDBOX_MERCHANT.controlKey), ...extra,
  }
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  const res = method === "GET"
    ? await fetch(url, { redirect: "manual" })
    : await fetch(`${url.origin}${url.pathname}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: url.searchParams.toString() })
  await res.arrayBuffer()
  return res.status
}

/** Every callback row of the session's client_orderid processed (none `received`); returns them. */
async function settledRows(container: MedusaContainer, clientOrderId: string, atLeast = 1) {
  return waitFor(`callbacks of ${clientOrderId} processed`, async () => {
    const rows = await callbackRows(container, { client_orderid: clientOrderId, source: "callback" })
    return rows.length >= atLeast && rows.every((r) => r.outcome !== "received" && r.outcome !== "failed") ? rows : false
  })
}

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let store: StoreFixture

    beforeAll(async () => {
      // Nothing here is about shipping: the product ships nothing, so a checkout skips that step.
      store = await seedStore(getContainer(), { currency: "eur", unitPrice: "10.42", shipsNothing: true })
    })

    /**
     * A hosted session whose page is still open after Medusa deleted it: the collection's second session replaced it.
     * Returns the stale session's gateway order and the live session's.
     */
    async function stalePage(providerId: string) {
      const { cart, paymentCollection, session: stale } = await checkoutToPaymentSession(api, store, providerId)
      const { paymentCollection: after, session: live } = await initiatePaymentSession(api, store, paymentCollection.id, providerId, { payer: payerFromCart(cart) })
      expect(after.payment_sessions.map((s: { id: string }) => s.id)).toEqual([live.id]) // Medusa deleted the first
      const [staleOrder] = sandbox().control.byClientOrderId(stale.id)
      const [liveOrder] = sandbox().control.byClientOrderId(live.id)
      return { stale, live, staleOrder, liveOrder }
    }

    /** A stale page paid with the sandbox's own callbacks off: the gateway holds the approved payment, nobody told us. */
    async function paidQuietly(providerId: string) {
      sandbox().control.addFault({ kind: "callback-off" })
      const page = await stalePage(providerId)
      await payHostedPage(page.stale.data.redirectUrl, CARD)
      await sandbox().control.waitForOutcome(page.staleOrder.orderid)
      sandbox().control.clearFaults()
      return page
    }

    it("an approved sale paid on the page of a deleted session is voided, once; the live session's order is untouched", async () => {
      const container = getContainer()
      const { stale, staleOrder, liveOrder } = await stalePage(PROVIDER_IDS.auto)
      expect(new URL(staleOrder.urls.serverCallback!).searchParams.get(OWNER_PARAM)).toBeTruthy()

      await payHostedPage(stale.data.redirectUrl, CARD) // the sandbox calls our callback route itself
      const [row] = await settledRows(container, stale.id)
      expect(row.outcome).toBe("processed")
      expect(row.outcome_detail).toMatch(/given back \(voided\)/)
      expect(giveBacks(staleOrder.orderid).map((t) => `${t.type} ${t.status}`)).toEqual(["void approved"])
      expect(sandbox().control.transaction(liveOrder.orderid)!.transactions.filter((t) => t.status === "approved")).toEqual([])
    })

    it("an approved preauth on a deleted session is voided; a settled sale, which the gateway will not void, is returned in full", async () => {
      const container = getContainer()
      const preauth = await stalePage(PROVIDER_IDS.hosted)
      await payHostedPage(preauth.stale.data.redirectUrl, CARD)
      await settledRows(container, preauth.stale.id)
      expect(giveBacks(preauth.staleOrder.orderid).map((t) => `${t.type} ${t.status}`)).toEqual(["void approved"])

      const sale = await paidQuietly(PROVIDER_IDS.auto)
      expect(sandbox().control.settle(sale.staleOrder.orderid)).toEqual([sale.staleOrder.orderid])
      expect(await deliver(sale.staleOrder.orderid)).toBe(200)
      const [row] = await settledRows(container, sale.stale.id)
      expect(row.outcome_detail).toMatch(/given back \(returned in full\)/)
      expect(giveBacks(sale.staleOrder.orderid).filter((t) => t.status === "approved").map((t) => t.type)).toEqual(["reversal"]) // a RETURN is a reversal transaction
      expect(sandbox().control.transaction(sale.staleOrder.orderid)!.returned).toBe(sale.staleOrder.initialAmount)
    })

    it("double submits: the approved callback again and again, one after the other and at once, with the tick beside them, give back once", async () => {
      const container = getContainer()
      const { stale, staleOrder } = await paidQuietly(PROVIDER_IDS.auto)
      // distinct gateway transaction ids make each a new event (a new row), not a redelivery of the first
      const [statuses] = await Promise.all([
        Promise.all(Array.from({ length: 6 }, (_, i) => deliver(staleOrder.orderid, { "processor-tx-id": `PNTEST-at-once-${i}` }, i % 2 ? "POST" : "GET"))),
        reconcileTick(container),
      ])
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200])
      await settledRows(container, stale.id, 6)
      for (let i = 0; i < 3; i++) {
        expect(await deliver(staleOrder.orderid, { "processor-tx-id": `PNTEST-after-${i}` })).toBe(200)
        expect(await deliver(staleOrder.orderid, { "processor-tx-id": `PNTEST-after-${i}` }, "POST")).toBe(200) // the same event again
      }
      const rows = (await settledRows(container, stale.id, 9)).filter((r) => r.type === "sale")
      expect(rows).toHaveLength(9)
      expect(rows.every((r) => r.outcome === "processed")).toBe(true)
      expect(rows.filter((r) => /given back \(/.test(r.outcome_detail))).toHaveLength(1)
      expect(rows.filter((r) => /given back already/.test(r.outcome_detail))).toHaveLength(8)
      expect(giveBacks(staleOrder.orderid)).toHaveLength(1)
    })

    for (const [fault, providerId] of [
      [{ kind: "response-lost", operation: "VOID", times: 1 }, PROVIDER_IDS.auto],
      [{ kind: "unreadable-200", operation: "VOID", times: 1 }, PROVIDER_IDS.hosted],
    ] as const) {
      it(`a ${fault.kind} reply to the give-back is settled by STATUS on the same order: one void`, async () => {
        const container = getContainer()
        const { stale, staleOrder } = await stalePage(providerId)
        const voidsBefore = sandbox().control.requests().VOID ?? 0
        sandbox().control.addFault(fault)
        await payHostedPage(stale.data.redirectUrl, CARD)
        const [row] = await settledRows(container, stale.id)
        expect(sandbox().control.faults()).toEqual([]) // the fault met our VOID (times: 1, used up)
        expect((sandbox().control.requests().VOID ?? 0) - voidsBefore).toBe(1) // sent once: STATUS told it had arrived
        expect(row.outcome).toBe("processed")
        expect(row.outcome_detail).toMatch(/given back \(voided\)/)
        expect(giveBacks(staleOrder.orderid).map((t) => `${t.type} ${t.status}`)).toEqual(["void approved"])
      })
    }

    it("a STATUS the gateway cannot answer fails the row and moves no money; the tick's retry gives back once", async () => {
      const container = getContainer()
      const { stale, staleOrder } = await paidQuietly(PROVIDER_IDS.auto)
      const voidsBefore = sandbox().control.requests().VOID ?? 0
      sandbox().control.addFault({ kind: "http-500", operation: "STATUS" })
      expect(await deliver(staleOrder.orderid)).toBe(200)
      const failed = await waitFor("the row failed", async () => {
        const [r] = await callbackRows(container, { client_orderid: stale.id, source: "callback" })
        return r?.outcome === "failed" ? r : false
      })
      expect(failed.outcome_detail).toMatch(/processing failed/)
      expect((sandbox().control.requests().VOID ?? 0) - voidsBefore).toBe(0)
      sandbox().control.clearFaults()
      // the tick re-runs a row failed for more than a minute: STATUS first again, then the one give-back
      await reconcileTick(container, { now: () => new Date(Date.now() + 120_000) })
      const [row] = await settledRows(container, stale.id)
      expect(row.outcome_detail).toMatch(/given back \(voided\)/)
      expect((sandbox().control.requests().VOID ?? 0) - voidsBefore).toBe(1)
      expect(giveBacks(staleOrder.orderid).map((t) => `${t.type} ${t.status}`)).toEqual(["void approved"])
    })

    it("a deleted session Medusa had recorded a payment for is never given back: a person decides", async () => {
      const container = getContainer()
      sandbox().control.addFault({ kind: "callback-off" })
      const { session } = await checkoutToPaymentSession(api, store, PROVIDER_IDS.auto)
      await payHostedPage(session.data.redirectUrl, CARD)
      const [gateway] = sandbox().control.byClientOrderId(session.id)
      await sandbox().control.waitForOutcome(gateway.orderid)
      sandbox().control.clearFaults()
      // Medusa authorized the session (a Payment holds the sale), then the session was deleted all the same.
      const payments = container.resolve(Modules.PAYMENT)
      const payment = await payments.authorizePaymentSession(session.id, {})
      await payments.deletePaymentSession(session.id)
      expect(await payments.listPaymentSessions({ id: session.id })).toEqual([])
      expect(await deliver(gateway.orderid)).toBe(200)
      const [row] = await settledRows(container, session.id)
      expect(row.outcome).toBe("flagged")
      expect(row.outcome_detail).toContain(payment!.id)
      expect(giveBacks(gateway.orderid)).toEqual([])
    })

    it("without our tag, or with a forged one, nothing is given back: the row is flagged for a person", async () => {
      const container = getContainer()
      const { stale, staleOrder } = await paidQuietly(PROVIDER_IDS.auto)
      const url = new URL(staleOrder.urls.serverCallback!)
      const real = url.searchParams.get(OWNER_PARAM)!
      const forged = real.slice(0, -1) + (real.endsWith("A") ? "B" : "A")
      expect(await deliver(staleOrder.orderid, { [OWNER_PARAM]: forged, "processor-tx-id": "PNTEST-forged" })).toBe(200)
      expect(await deliver(staleOrder.orderid, { [OWNER_PARAM]: "", "processor-tx-id": "PNTEST-untagged" })).toBe(200)
      const rows = await settledRows(container, stale.id, 2)
      expect(rows.map((r) => r.outcome)).toEqual(["flagged", "flagged"])
      expect(giveBacks(staleOrder.orderid)).toEqual([])
    })
  },
})

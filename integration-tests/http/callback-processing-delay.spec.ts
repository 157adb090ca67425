/**
 * The plugin option `callbackProcessingDelayMs` (here 3000 ms, so that a loaded machine still completes the cart in
 * time; the other specs run with 50 ms and the plugin's default is 1000 ms): the callback route answers and records at
 * once, and processing starts only after the delay.
 * - Direct flow: the gateway calls back right after the charge, while the storefront is about to complete the cart.
 *   The storefront completes it itself, and the callback's processing, after the delay, finds the order there. With
 *   processing at once, the callback completed the cart first and the storefront's completion waited for its lock.
 * - Hosted flow, the shopper never comes back: the delayed processing still completes the cart into an order.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { payHostedPage } from "../../src/sandbox"
import { TEST_APP_DIR } from "../helpers/paths"
import { PROVIDER_IDS } from "../helpers/provider-options"
import { useSandbox } from "../helpers/sandbox"
import { callbackRows, ordersForCart, paymentsForSession, waitFor } from "../helpers/inspect"
import { adminAndEurStore, checkoutToPaymentSession, completeCartResponse, storeHeaders, type StoreFixture } from "../helpers/store"

jest.setTimeout(240_000)

const DELAY_MS = 3000

// Read by integration-tests/medusa-config.ts, which the runner evaluates in its beforeAll (after this line runs);
// restored afterwards, since the next spec file may run in this same Jest worker process.
const previousDelay = process.env.PNE_TEST_CALLBACK_DELAY_MS
process.env.PNE_TEST_CALLBACK_DELAY_MS = String(DELAY_MS)
afterAll(() => {
  if (previousDelay === undefined) delete process.env.PNE_TEST_CALLBACK_DELAY_MS
  else process.env.PNE_TEST_CALLBACK_DELAY_MS = previousDelay
})

const sandbox = useSandbox()

const CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Test Shopper" }

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let eur: StoreFixture

    beforeAll(async () => {
      ;({ eur } = await adminAndEurStore(api, getContainer()))
    })

    /** The session's one gateway callback row, once the route has recorded it. */
    const recorded = (sessionId: string) =>
      waitFor(`the callback of ${sessionId}`, async () => (await callbackRows(getContainer(), { client_orderid: sessionId, source: "callback" }))[0], 10_000)

    /** The same row once processing has written its outcome. */
    const processed = (sessionId: string) =>
      waitFor(`the processed callback of ${sessionId}`, async () => {
        const [row] = await callbackRows(getContainer(), { client_orderid: sessionId, source: "callback" })
        return row && row.outcome !== "received" ? row : undefined
      }, 15_000)

    it("direct flow: the storefront completes the cart; the callback, processed after the delay, finds the order", async () => {
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.direct)
      const card = { number: CARD.number, cvv: CARD.cvv2, expMonth: CARD.expMonth, expYear: CARD.expYear, holder: CARD.holder }
      const charged = await api.post(`/store/payneteasy/payment-sessions/${session.id}/card`, { card }, storeHeaders(eur))
      expect(charged.data.payment_session.status).toBe("authorized")

      // The gateway has called back (the sandbox does 20 ms after the charge) and the route has recorded it, but
      // nothing has processed it: no order yet.
      const row = await recorded(session.id)
      expect(row).toMatchObject({ type: "preauth", status: "approved", outcome: "received" })
      expect(await ordersForCart(getContainer(), cart.id)).toEqual([])

      const done = await completeCartResponse(api, eur, cart.id)
      expect(done.status).toBe(200)
      expect(done.data.type).toBe("order")

      const after = await processed(session.id)
      expect(after.outcome).toBe("processed")
      expect(after.outcome_detail).toBe("authorized: already authorized; nothing to do")
      // not before the delay: processing starts DELAY_MS after the route queued it, which was after it recorded the row
      expect(new Date(after.processed_at).getTime() - new Date(after.received_at).getTime()).toBeGreaterThanOrEqual(DELAY_MS)
      expect(await ordersForCart(getContainer(), cart.id)).toEqual([done.data.order.id])
      expect(await paymentsForSession(getContainer(), session.id)).toHaveLength(1)
    })

    it("hosted flow, the shopper never returns: the delayed processing completes the cart into an order", async () => {
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.hosted)
      await payHostedPage(session.data.redirectUrl, CARD)

      const row = await recorded(session.id)
      expect(row).toMatchObject({ status: "approved", outcome: "received" })
      expect(await ordersForCart(getContainer(), cart.id)).toEqual([])

      const after = await processed(session.id)
      expect(after.outcome).toBe("processed")
      expect(after.outcome_detail).toBe("authorized: authorized and the cart completed into an order")
      expect(new Date(after.processed_at).getTime() - new Date(after.received_at).getTime()).toBeGreaterThanOrEqual(DELAY_MS)
      const orders = await ordersForCart(getContainer(), cart.id)
      expect(orders).toHaveLength(1)
      expect(sandbox().control.byClientOrderId(session.id)).toHaveLength(1)

      // The shopper's storefront, had it come back now, gets the same order.
      const late = await completeCartResponse(api, eur, cart.id)
      expect(late.data.type).toBe("order")
      expect(late.data.order.id).toBe(orders[0])
    })
  },
})

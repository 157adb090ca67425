/**
 * Issue 32 part 6: state changes only on a reply that is about this payment.
 * - Gateway ids in session data come only from the gateway: a direct session created with a storefront-supplied
 *   `orderId` (another shopper's gateway order) or `gatewayStatus` does not keep them.
 * - A STATUS reply about another transaction (sandbox fault `status-foreign`: a gateway or proxy that mixes orders
 *   up; the sandbox itself refuses a mismatch) never authorizes the session: it stays pending and the admin's
 *   attention list shows the mismatch.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { reconcileTick } from "../helpers/reconcile-tick"
import { TEST_APP_DIR } from "../helpers/paths"
import { PROVIDER_IDS } from "../helpers/provider-options"
import { useSandbox } from "../helpers/sandbox"
import { waitFor } from "../helpers/inspect"
import {
  adminAndEurStore, checkoutToPaymentSession, completeCartResponse, payerFromCart, postCard, storeHeaders, type AdminAuth, type Api,
  type StoreFixture,
} from "../helpers/store"

jest.setTimeout(240_000)

const sandbox = useSandbox()
const card = (cvv: string) => ({ number: "4111111111111111", cvv, expMonth: "12", expYear: "2031", holder: "Direct Shopper" })

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let admin: AdminAuth
    let eur: StoreFixture

    beforeAll(async () => {
      ;({ admin, eur } = await adminAndEurStore(api, getContainer()))
    })
    afterEach(() => sandbox().control.clearFaults())

    /** Another shopper's paid direct checkout: its gateway order id. */
    async function otherShoppersOrder(): Promise<string> {
      const { session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.direct)
      const paid = await postCard(api, eur, session.id, { card: card("111") })
      expect(paid.data.payment_session.status).toBe("authorized")
      return paid.data.payment_session.data.orderId as string
    }

    it("a storefront-supplied orderId or gatewayStatus is not kept in the session's data", async () => {
      const foreign = await otherShoppersOrder()
      const { cart: probe } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.direct)
      const { session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.direct, {
        sessionData: { payer: payerFromCart(probe), orderId: foreign, gatewayStatus: "approved", redirectUrl: "https://evil.example/pay" },
      })
      // cleared keys are written null (Medusa merges the storefront's data with the provider's)
      const kept = (k: string) => session.data[k] ?? undefined
      expect({ orderId: kept("orderId"), gatewayStatus: kept("gatewayStatus"), redirectUrl: kept("redirectUrl") })
        .toEqual({ orderId: undefined, gatewayStatus: undefined, redirectUrl: undefined })
      expect(sandbox().control.byClientOrderId(session.id)).toHaveLength(0)
    })

    it("a STATUS reply about another transaction never authorizes the session: pending, and an attention item", async () => {
      const foreign = await otherShoppersOrder()
      const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.direct)
      // This shopper's card is declined; every STATUS now answers with the other shopper's approved order.
      sandbox().control.addFault({ kind: "status-foreign", orderid: foreign })
      const res = await postCard(api, eur, session.id, { card: card("116") })
      const ps = res.data.payment_session
      expect(ps.status).not.toBe("authorized")
      expect(ps.data.orderId).not.toBe(foreign)
      // the gateway's own record of this shopper's attempt: declined (its processing may end after the card step answers)
      await waitFor("the sandbox declined this shopper's attempt", async () => sandbox().control.byClientOrderId(session.id)[0]?.status === "declined")

      const done = await completeCartResponse(api, eur, cart.id)
      expect(done.data.type).not.toBe("order")

      const container = getContainer()
      const item = await waitFor("the mismatch is in the attention list", async () => {
        await reconcileTick(container)
        const list = await api.get("/admin/payneteasy/attention", admin)
        return list.data.items.find((i: any) => i.session_id === session.id) ?? false
      })
      expect(item).toMatchObject({ kind: "reply_mismatch", what_to_do: expect.any(String) })
      expect(item.detail).toMatch(/another/)
      const { data } = await api.get(`/store/carts/${cart.id}`, storeHeaders(eur))
      expect(data.cart.completed_at ?? null).toBeNull()
    })
  },
})

/**
 * A Payment's money is never touched by a payment session's lifecycle (issue 49, defects 1 and 3).
 *
 * Defect 1: Medusa's `createPaymentSessionsWorkflow` does not check that a collection is paid: a new session on a
 * placed order's collection (a second tab still on the payment step, a stale pay-again button, a script holding the
 * publishable key) deleted the old session, and the provider's deletePayment voided the preauth behind the order.
 * What must hold, on the real app with the sandbox over HTTP:
 * - a new session on an authorized or captured collection is refused 409 in words, before Medusa deletes anything,
 *   for every PaynetEasy registration and for any other provider id, on the store route and the admin route, one
 *   request at a time and several at once; the gateway holds exactly what it held, and the admin still captures;
 * - the provider's deletePayment moves no money when its session backs a Payment, whoever calls it.
 * Defect 3: provider-only keys a storefront writes into a saved-card session's data (orderId, voided, captures,
 * refunds, replyMismatch, …) never reach the session.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { payHostedPage } from "../../src/sandbox"
import { PROVIDER_ONLY_KEYS } from "../../src/core/checkout/provider-keys"
import { TEST_APP_DIR } from "../helpers/paths"
import { PROVIDER_IDS } from "../helpers/provider-options"
import { useSandbox } from "../helpers/sandbox"
import { answer, savedCardShopper } from "../helpers/saved-card-shopper"
import {
  checkoutToPaymentSession, completeCart, createAdminUser, payerFromCart, seedStore, storeHeaders, type AdminAuth, type StoreFixture,
} from "../helpers/store"

jest.setTimeout(240_000)

const sandbox = useSandbox()
const CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Paid Order Shopper" }
const REFUSAL = /already (paid|authorized)/i
/** Every provider the test region offers: the plugin's three registrations and Medusa's own. */
const EVERY_PROVIDER = [PROVIDER_IDS.hosted, PROVIDER_IDS.direct, PROVIDER_IDS.auto, "pp_system_default"]

/** The gateway's transactions on an order as "type status", in order. */
const ledger = (orderid: string) => (sandbox().control.transaction(orderid)?.transactions ?? []).map((t) => `${t.type} ${t.status}`)

async function paymentOf(container: MedusaContainer, collectionId: string) {
  const [collection] = await container.resolve(Modules.PAYMENT).listPaymentCollections({ id: collectionId }, { relations: ["payments"] })
  expect(collection.payments).toHaveLength(1)
  return collection.payments![0]
}

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let store: StoreFixture
    let admin: AdminAuth

    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      store = await seedStore(getContainer(), {
        currency: "eur", unitPrice: "10.42", shipsNothing: true, paymentProviders: EVERY_PROVIDER,
      })
    })

    /** A guest order paid on the hosted page of `providerId`: its collection, session and gateway order. */
    async function placedOrder(providerId: string) {
      const { cart, paymentCollection, session } = await checkoutToPaymentSession(api, store, providerId)
      await payHostedPage(session.data.redirectUrl, CARD)
      const [gatewayOrder] = sandbox().control.byClientOrderId(session.id)
      await sandbox().control.waitForOutcome(gatewayOrder.orderid)
      const done = await completeCart(api, store, cart.id)
      expect(done.type).toBe("order")
      return { cart, collectionId: paymentCollection.id as string, session, orderid: gatewayOrder.orderid, order: done.order }
    }

    const newSession = (collectionId: string, providerId: string, cart?: any) =>
      answer(api.post(
        `/store/payment-collections/${collectionId}/payment-sessions`,
        { provider_id: providerId, ...(cart ? { data: { payer: payerFromCart(cart) } } : {}) },
        storeHeaders(store)
      ))

    async function sessionsOf(collectionId: string) {
      return getContainer().resolve(Modules.PAYMENT).listPaymentSessions({ payment_collection_id: collectionId }, { select: ["id", "provider_id", "status"] })
    }

    it("a new session on an authorized order's collection is refused 409 for every provider; the preauth stands and the admin captures it", async () => {
      const { cart, collectionId, session, orderid } = await placedOrder(PROVIDER_IDS.hosted)
      expect(ledger(orderid)).toEqual(["preauth approved"])

      for (const providerId of EVERY_PROVIDER) {
        const res = await newSession(collectionId, providerId, cart)
        expect({ providerId, status: res.status }).toEqual({ providerId, status: 409 })
        expect(res.data.message).toMatch(REFUSAL)
      }
      expect((await sessionsOf(collectionId)).map((s) => s.id)).toEqual([session.id]) // nothing deleted, nothing added
      expect(ledger(orderid)).toEqual(["preauth approved"]) // no void

      const payment = await paymentOf(getContainer(), collectionId)
      const captured = await answer(api.post(`/admin/payments/${payment.id}/capture`, {}, admin))
      expect(captured.status).toBe(200)
      expect(ledger(orderid)).toEqual(["preauth approved", "capture approved"])
    })

    it("several new sessions at once on an authorized collection: each refused, nothing voided", async () => {
      const { cart, collectionId, session, orderid } = await placedOrder(PROVIDER_IDS.hosted)
      const answers = await Promise.all([
        newSession(collectionId, PROVIDER_IDS.hosted, cart),
        newSession(collectionId, PROVIDER_IDS.hosted, cart),
        newSession(collectionId, PROVIDER_IDS.auto, cart),
        newSession(collectionId, "pp_system_default"),
      ])
      expect(answers.map((a) => a.status)).toEqual([409, 409, 409, 409])
      expect((await sessionsOf(collectionId)).map((s) => s.id)).toEqual([session.id])
      expect(ledger(orderid)).toEqual(["preauth approved"])
    })

    it("the admin's payment-session route is refused the same way; a captured sale's collection too", async () => {
      const { collectionId, orderid } = await placedOrder(PROVIDER_IDS.auto)
      expect(ledger(orderid)).toEqual(["sale approved"])
      const viaAdmin = await answer(api.post(`/admin/payment-collections/${collectionId}/payment-sessions`, { provider_id: PROVIDER_IDS.auto }, admin))
      expect(viaAdmin.status).toBe(409)
      expect(viaAdmin.data.message).toMatch(REFUSAL)
      const viaStore = await newSession(collectionId, PROVIDER_IDS.hosted)
      expect(viaStore.status).toBe(409)
      expect(ledger(orderid)).toEqual(["sale approved"]) // no reversal
    })

    it("deletePayment of a session that backs a Payment moves no money, whoever calls it", async () => {
      const { collectionId, session, orderid } = await placedOrder(PROVIDER_IDS.hosted)
      // Any path around the routes (another plugin, a script in the container) reaches the provider the same way.
      await getContainer().resolve(Modules.PAYMENT).deletePaymentSession(session.id)
      expect(ledger(orderid)).toEqual(["preauth approved"])
      const payment = await paymentOf(getContainer(), collectionId)
      const captured = await answer(api.post(`/admin/payments/${payment.id}/capture`, {}, admin))
      expect(captured.status).toBe(200)
      expect(ledger(orderid)).toEqual(["preauth approved", "capture approved"])
    })

    it("a new session on an open collection still replaces the old one, and a hold on the replaced session is released", async () => {
      // The lifecycle that stays: the shopper paid a preauth, then came back to the payment step before completing.
      const { cart, paymentCollection, session } = await checkoutToPaymentSession(api, store, PROVIDER_IDS.hosted)
      await payHostedPage(session.data.redirectUrl, CARD)
      const [gatewayOrder] = sandbox().control.byClientOrderId(session.id)
      await sandbox().control.waitForOutcome(gatewayOrder.orderid)
      const replaced = await newSession(paymentCollection.id, PROVIDER_IDS.hosted, cart)
      expect(replaced.status).toBe(200)
      expect(ledger(gatewayOrder.orderid)).toEqual(["preauth approved", "void approved"])
    })

    describe("saved-card sessions (defect 3)", () => {
      const shopper = savedCardShopper(api, getContainer, () => store)
      /** What a forger would write for the keys that matter most; every other provider-only key gets a marker. */
      const TYPED: Record<string, unknown> = {
        orderId: "990001", gatewayStatus: "approved", voided: true, redirectUrl: "https://attacker.example/pay",
        nextAction: { type: "redirect", url: "https://attacker.example/3ds" },
        captures: [{ id: "capt_forged", amount: "10.42", status: "approved" }],
        refunds: [{ id: "ref_forged", amount: "10.42", status: "approved" }],
        voidEntry: { id: "void", amount: "all", status: "approved" },
        error: { message: "forged" }, replyMismatch: { detail: "forged", at: "2026-01-01T00:00:00Z" },
      }
      // from the one table: a key added to it is forged here by construction
      const forged = Object.fromEntries(PROVIDER_ONLY_KEYS.map((k) => [k, k in TYPED ? TYPED[k] : `forged-${k}`]))

      it("every provider-only key the storefront writes is cleared from the session's data", async () => {
        const { owner, ownerCard } = await shopper.ownerWithCard("forger")
        const { collectionId } = await shopper.customerCart(owner)
        const res = await shopper.createSession(owner, collectionId, { card_id: ownerCard.id, ...forged })
        expect(res.status).toBe(200)
        const [stored] = await getContainer().resolve(Modules.PAYMENT).listPaymentSessions({ payment_collection_id: collectionId }, { select: ["id", "data"] })
        const kept = Object.keys(forged).filter((k) => JSON.stringify(stored.data?.[k]) === JSON.stringify(forged[k]))
        expect(kept).toEqual([])
        expect(stored.data?.voided ?? null).toBeNull()
      })
    })
  },
})

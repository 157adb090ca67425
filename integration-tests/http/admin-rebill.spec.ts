/**
 * Admin rebill (issue 12), end to end: a customer pays with `save_card` (automatic capture, so the order is paid), an
 * admin edits the order so that it has an outstanding amount, and charges exactly that amount to the saved card. The
 * charge must become a Medusa payment on the order (outstanding back to zero, refundable), match the gateway's record
 * to the minor unit (EUR and JPY), happen once for three concurrent requests, and change nothing when declined.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { PAYNETEASY_MODULE } from "../../src/modules/payneteasy"
import { TEST_APP_DIR } from "../helpers/paths"
import { PROVIDER_IDS } from "../helpers/provider-options"
import { useSandbox } from "../helpers/sandbox"
import { waitFor } from "../helpers/inspect"
import { createAdminUser, customerHostedOrder, registerCustomer, seedStore, type AdminAuth, type StoreFixture } from "../helpers/store"

jest.setTimeout(300_000)

const sandbox = useSandbox()

const CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Rebill Shopper" }

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let admin: AdminAuth
    let eur: StoreFixture
    let jpy: StoreFixture

    beforeAll(async () => {
      eur = await seedStore(getContainer(), { currency: "eur", unitPrice: "10.42" })
      jpy = await seedStore(getContainer(), { currency: "jpy", unitPrice: "1500", countries: ["jp"] })
    })
    beforeEach(async () => {
      admin = await createAdminUser(api, getContainer())
    })

    const call = (p: Promise<any>) => p.catch((e: any) => e.response)

    async function customerWithPaidOrder(store: StoreFixture) {
      const { headers } = await registerCustomer(api, store, "rebill")
      const { orderId } = await customerHostedOrder(api, store, { headers }, {
        providerId: PROVIDER_IDS.auto, card: CARD, data: { save_card: true },
        address: { first_name: "Re", last_name: "Bill", address_1: "4 Rebill St", city: "Town", postal_code: "10117", phone: "+49303333333" },
      })
      const order = (await api.get(`/admin/orders/${orderId}?fields=id,customer_id`, admin)).data.order
      expect(order.customer_id).toBeTruthy()
      const card = await waitFor("the saved card", async () => {
        const { data } = await api.get(`/admin/payneteasy/customers/${order.customer_id}/cards`, admin)
        return data.cards[0]
      })
      return { order, card, headers }
    }

    async function orderView(orderId: string) {
      const fields = "id,total,currency_code,summary,*payment_collections,*payment_collections.payments,*payment_collections.payments.captures,*payment_collections.payments.refunds"
      return (await api.get(`/admin/orders/${orderId}?fields=${encodeURIComponent(fields)}`, admin)).data.order
    }

    /** An admin order edit adding one more unit of the variant: the order then has an outstanding amount. */
    async function addItemByOrderEdit(store: StoreFixture, orderId: string) {
      await api.post("/admin/order-edits", { order_id: orderId }, admin)
      await api.post(`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: store.variantId, quantity: 1 }] }, admin)
      await api.post(`/admin/order-edits/${orderId}/request`, {}, admin)
      await api.post(`/admin/order-edits/${orderId}/confirm`, {}, admin)
    }

    const outstanding = (order: any) => String(order.summary.pending_difference)
    const rebillRows = async (orderId: string) =>
      (await (getContainer().resolve(PAYNETEASY_MODULE) as any).listPaynetEasyRebills({ order_id: orderId })) as any[]

    for (const [label, storeOf, price, expected] of [
      ["EUR", () => eur, "10.42", "10.42"],
      ["JPY", () => jpy, "1500", "1500"],
    ] as const) {
      it(`${label}: charges exactly the outstanding amount after an order edit; the order is paid; the payment refunds`, async () => {
        const store = storeOf()
        const { order, card } = await customerWithPaidOrder(store)
        expect(card.source_order_id).toBe(order.id)
        expect(card).not.toHaveProperty("card_ref_id")
        expect(outstanding(await orderView(order.id))).toBe("0")
        await addItemByOrderEdit(store, order.id)
        const edited = await orderView(order.id)
        expect(outstanding(edited)).toBe(price)

        const before = sandbox().control.requests().REBILL ?? 0
        const res = await api.post(`/admin/payneteasy/orders/${order.id}/rebill`, { card_id: card.id }, admin)
        expect(res.status).toBe(200)
        expect(res.data).toMatchObject({
          gateway_status: "approved",
          payment: { amount: expected, currency_code: store.currency, captured: true, provider_id: PROVIDER_IDS.auto },
          rebill: { state: "succeeded", replayed: false, amount: expected },
        })
        expect(sandbox().control.requests().REBILL).toBe(before + 1)
        const rows = await rebillRows(order.id)
        const gw = sandbox().control.byClientOrderId(rows[0].session_id)
        expect(gw).toHaveLength(1)
        expect(gw[0]).toMatchObject({ operation: "REBILL", status: "approved", initialAmount: expected, captured: expected, currency: label })

        const paid = await orderView(order.id)
        expect(outstanding(paid)).toBe("0")
        const payment = paid.payment_collections.flatMap((c: any) => c.payments).find((p: any) => p.id === res.data.payment.id)
        expect(payment.captures).toHaveLength(1)

        // Repeating the same request after success charges nothing more.
        const again = await api.post(`/admin/payneteasy/orders/${order.id}/rebill`, { card_id: card.id }, admin)
        expect(again.data.rebill).toMatchObject({ replayed: true, rebill_id: res.data.rebill.rebill_id })
        expect(sandbox().control.requests().REBILL).toBe(before + 1)

        // Refund part of the rebill payment like any other payment; the gateway returns exactly that.
        const part = label === "EUR" ? 4.21 : 700
        await api.post(`/admin/payments/${payment.id}/refund`, { amount: part }, admin)
        expect(sandbox().control.byClientOrderId(rows[0].session_id)[0].returned).toBe(label === "EUR" ? "4.21" : "700")
      })
    }

    it("three concurrent rebill requests give one gateway transaction and one payment", async () => {
      const { order, card } = await customerWithPaidOrder(eur)
      await addItemByOrderEdit(eur, order.id)
      const before = sandbox().control.requests().REBILL ?? 0
      const results = await Promise.all([0, 1, 2].map(() => call(api.post(`/admin/payneteasy/orders/${order.id}/rebill`, { card_id: card.id }, admin))))
      expect(results.map((r) => r.status)).toEqual([200, 200, 200])
      expect(results.filter((r) => r.data.rebill.replayed === false)).toHaveLength(1)
      expect(new Set(results.map((r) => r.data.payment.id)).size).toBe(1)
      expect(sandbox().control.requests().REBILL).toBe(before + 1)
      const view = await orderView(order.id)
      expect(outstanding(view)).toBe("0")
      expect(view.payment_collections.flatMap((c: any) => c.payments)).toHaveLength(2) // checkout + one rebill
    })

    it("a lost rebill reply is resolved by STATUS, not re-sent: one gateway transaction, the order paid", async () => {
      const { order, card } = await customerWithPaidOrder(eur)
      await addItemByOrderEdit(eur, order.id)
      const before = sandbox().control.requests().REBILL ?? 0
      const statusBefore = sandbox().control.requests().STATUS ?? 0
      sandbox().control.addFault({ operation: "REBILL", kind: "response-lost", times: 1 })
      const res = await api.post(`/admin/payneteasy/orders/${order.id}/rebill`, { card_id: card.id }, admin)
      sandbox().control.clearFaults()
      expect(res.data).toMatchObject({ gateway_status: "approved", payment: { amount: "10.42" } })
      expect(sandbox().control.requests().REBILL).toBe(before + 1)
      expect((sandbox().control.requests().STATUS ?? 0) - statusBefore).toBeGreaterThanOrEqual(1)
      const [row] = await rebillRows(order.id)
      expect(sandbox().control.byClientOrderId(row.session_id)).toHaveLength(1)
      expect(outstanding(await orderView(order.id))).toBe("0")
    })

    it("a rebill whose reply and STATUS are both lost: 202 pending, a repeat is refused (409), and the gateway's answer books it on the order once", async () => {
      const { order, card } = await customerWithPaidOrder(eur)
      await addItemByOrderEdit(eur, order.id)
      const url = `/admin/payneteasy/orders/${order.id}/rebill`
      const before = sandbox().control.requests().REBILL ?? 0
      sandbox().control.addFault({ operation: "REBILL", kind: "response-lost", times: 1 })
      const statusDown = sandbox().control.addFault({ operation: "STATUS", kind: "http-500" })
      let res
      try {
        res = await call(api.post(url, { card_id: card.id }, admin))
      } finally {
        sandbox().control.removeFault(statusDown.id)
      }
      // Not a decline and not a failure: the card may have been charged.
      expect(res.status).toBe(202)
      expect(res.data).toMatchObject({ type: "payment_pending", payment: null, rebill: { state: "pending" } })
      expect(res.data.message).toMatch(/outcome unknown.*Check the order at the gateway before charging again/)
      const [row] = await rebillRows(order.id)
      expect(row).toMatchObject({ state: "pending", gateway_status: "unknown" })

      // The same rebill again is refused with the reason, and sends nothing.
      const again = await call(api.post(url, { card_id: card.id }, admin))
      expect(again.status).toBe(409)
      expect(again.data).toMatchObject({ type: "rebill_pending", message: expect.stringMatching(/no recorded outcome; check the order at the gateway/) })
      expect(sandbox().control.requests().REBILL).toBe(before + 1)

      // The gateway did charge it: its callback (or reconciliation) books the payment on the order, once.
      const booked = await waitFor("the rebill to be booked", async () => {
        const [r] = await rebillRows(order.id)
        return r.state === "succeeded" ? r : false
      })
      expect(booked).toMatchObject({ gateway_status: "approved", error_message: null, payment_id: expect.any(String) })
      const view = await orderView(order.id)
      expect(outstanding(view)).toBe("0")
      const payments = view.payment_collections.flatMap((c: any) => c.payments)
      expect(payments).toHaveLength(2) // checkout + the rebill
      expect(payments.find((p: any) => p.id === booked.payment_id).captures).toHaveLength(1)
      expect(sandbox().control.byClientOrderId(row.session_id)).toHaveLength(1)
      expect(sandbox().control.requests().REBILL).toBe(before + 1)
    })

    it("a declined rebill says why and changes no total", async () => {
      const { order, card } = await customerWithPaidOrder(eur)
      await addItemByOrderEdit(eur, order.id)
      const [row] = await (getContainer().resolve(PAYNETEASY_MODULE) as any).listPaynetEasySavedCards({ id: card.id })
      sandbox().control.setCardRefBehaviour(row.card_ref_id, "decline-funds" as any)
      const res = await call(api.post(`/admin/payneteasy/orders/${order.id}/rebill`, { card_id: card.id }, admin))
      expect(res.status).toBe(400)
      expect(res.data.message).toMatch(/insufficient funds/i)
      const view = await orderView(order.id)
      expect(outstanding(view)).toBe("10.42")
      expect(view.payment_collections.flatMap((c: any) => c.payments)).toHaveLength(1) // only the checkout's
      expect((await rebillRows(order.id))[0]).toMatchObject({ state: "failed" })
    })

    it("refuses without admin auth, with unknown fields, with another customer's card, beyond the outstanding amount, and a deleted card", async () => {
      const { order } = await customerWithPaidOrder(eur)
      const { card: otherCard } = await customerWithPaidOrder(eur)
      await addItemByOrderEdit(eur, order.id)
      const url = `/admin/payneteasy/orders/${order.id}/rebill`
      const before = sandbox().control.requests().REBILL ?? 0
      expect((await call(api.post(url, { card_id: otherCard.id }))).status).toBe(401)
      const unknown = await call(api.post(url, { card_id: otherCard.id, cardrefid: "x" }, admin))
      expect(unknown.status).toBe(400)
      expect(unknown.data.message).toMatch(/cardrefid/)
      const foreign = await call(api.post(url, { card_id: otherCard.id }, admin))
      expect(foreign.status).toBe(404)
      const { data } = await api.get(`/admin/payneteasy/customers/${order.customer_id}/cards`, admin)
      const tooMuch = await call(api.post(url, { card_id: data.cards[0].id, amount: "10.43" }, admin))
      expect(tooMuch.status).toBe(400)
      expect(tooMuch.data.message).toMatch(/outstanding 10.42 EUR/)
      const tooPrecise = await call(api.post(url, { card_id: data.cards[0].id, amount: "1.005" }, admin))
      expect(tooPrecise.status).toBe(400)
      expect(tooPrecise.data.message).toMatch(/at most 2 decimals/)
      expect(sandbox().control.requests().REBILL ?? 0).toBe(before)
      expect(outstanding(await orderView(order.id))).toBe("10.42")

      // The widget's delete: another customer's card under this customer is a 404; the own card is deleted and can no
      // longer be charged.
      const own = data.cards[0].id
      expect((await call(api.delete(`/admin/payneteasy/customers/${order.customer_id}/cards/${otherCard.id}`, admin))).status).toBe(404)
      expect((await api.delete(`/admin/payneteasy/customers/${order.customer_id}/cards/${own}`, admin)).data).toEqual({ id: own, deleted: true })
      expect((await api.get(`/admin/payneteasy/customers/${order.customer_id}/cards`, admin)).data.cards).toEqual([])
      expect((await call(api.post(url, { card_id: own }, admin))).status).toBe(404)
      expect(sandbox().control.requests().REBILL ?? 0).toBe(before)
    })
  },
})

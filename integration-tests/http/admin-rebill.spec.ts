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
import { createAdminUser, customerHostedOrder, payerFromCart, registerCustomer, seedStore, type AdminAuth, type StoreFixture } from "../helpers/store"

jest.setTimeout(300_000)

const sandbox = useSandbox()

const CARD = { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2030", holder: "Rebill Shopper" }
const OTHER_CARD = { number: "5555555555554444", cvv2: "123", expMonth: "07", expYear: "2031", holder: "Rebill Shopper" }

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

    const ADDRESS = { first_name: "Re", last_name: "Bill", address_1: "4 Rebill St", city: "Town", postal_code: "10117", phone: "+49303333333" }

    async function customerWithPaidOrder(store: StoreFixture) {
      const { headers } = await registerCustomer(api, store, "rebill")
      const { orderId } = await customerHostedOrder(api, store, { headers }, {
        providerId: PROVIDER_IDS.auto, card: CARD, data: { save_card: true }, address: ADDRESS,
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

    /** One more order of the same customer on the hosted page: manual capture (authorized, not captured) or a sale. */
    async function anotherOrder(store: StoreFixture, headers: Record<string, string>, providerId: string, card = CARD, data: Record<string, unknown> = {}) {
      const { orderId } = await customerHostedOrder(api, store, { headers }, { providerId, card, data, address: ADDRESS })
      return orderId
    }

    /** A second saved card of the same customer (another checkout with save_card and another card number). */
    async function secondCard(store: StoreFixture, customerId: string, headers: Record<string, string>) {
      await anotherOrder(store, headers, PROVIDER_IDS.auto, OTHER_CARD, { save_card: true })
      return waitFor("the second saved card", async () => {
        const { data } = await api.get(`/admin/payneteasy/customers/${customerId}/cards`, admin)
        return data.cards.length >= 2 ? data.cards : undefined
      })
    }

    const outstanding = (order: any) => String(order.summary.pending_difference)
    const gatewayCounts = () => ({ REBILL: sandbox().control.requests().REBILL ?? 0, VOID: sandbox().control.requests().VOID ?? 0 })
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
        // ... and so does the same rebill written otherwise, or with the amount omitted: nothing is left to charge.
        for (const body of [{ card_id: card.id, amount: expected }, { card_id: card.id, amount: label === "EUR" ? "10.420" : "1500.0" }]) {
          const other = await call(api.post(`/admin/payneteasy/orders/${order.id}/rebill`, body, admin))
          expect(other.status).toBe(409)
          expect(other.data).toMatchObject({ type: "no_balance" })
        }
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

    it("a rebill whose connection is reset after it was written: the client cannot tell it from a processed one, so it stays pending (202) and no retry charges a second time", async () => {
      const { order, card } = await customerWithPaidOrder(eur)
      await addItemByOrderEdit(eur, order.id)
      const url = `/admin/payneteasy/orders/${order.id}/rebill`
      const rebillRequests = () => sandbox().control.requests().REBILL ?? 0
      const requestsBefore = rebillRequests()
      sandbox().control.addFault({ operation: "REBILL", kind: "connection-reset", times: 1 })
      const reset = await call(api.post(url, { card_id: card.id }, admin))
      sandbox().control.clearFaults()
      // maybe sent (issue 49): not "nothing was charged", and never sent again while the gateway may still show it
      expect(reset.status).toBe(202)
      expect(reset.data).toMatchObject({ type: "payment_pending" })
      expect(rebillRequests()).toBe(requestsBefore + 1)
      const retried = await Promise.all([{ card_id: card.id }, { card_id: card.id, amount: "10.420" }].map((body) => call(api.post(url, body, admin))))
      expect(retried.map((r) => [r.status, r.data.type])).toEqual([[409, "rebill_pending"], [409, "rebill_pending"]])
      expect(rebillRequests()).toBe(requestsBefore + 1)
      expect(paymentsOfView(await orderView(order.id))).toHaveLength(1) // only the checkout's
    })

    const paymentsOfView = (view: any) => view.payment_collections.flatMap((c: any) => c.payments)

    for (const fault of ["response-lost"] as const) {
      it(`a ${fault} rebill reply is resolved by STATUS, not re-sent: one gateway transaction, the order paid; submitted again (same body, written otherwise), nothing more`, async () => {
        const { order, card } = await customerWithPaidOrder(eur)
        await addItemByOrderEdit(eur, order.id)
        const before = sandbox().control.requests().REBILL ?? 0
        const statusBefore = sandbox().control.requests().STATUS ?? 0
        sandbox().control.addFault({ operation: "REBILL", kind: fault, times: 1 })
        const res = await api.post(`/admin/payneteasy/orders/${order.id}/rebill`, { card_id: card.id }, admin)
        sandbox().control.clearFaults()
        expect(res.data).toMatchObject({ gateway_status: "approved", payment: { amount: "10.42" } })
        expect(sandbox().control.requests().REBILL).toBe(before + 1)
        expect((sandbox().control.requests().STATUS ?? 0) - statusBefore).toBeGreaterThanOrEqual(1)
        const [row] = await rebillRows(order.id)
        expect(sandbox().control.byClientOrderId(row.session_id)).toHaveLength(1)
        expect(outstanding(await orderView(order.id))).toBe("0")
        const again = await Promise.all(
          [{ card_id: card.id }, { card_id: card.id, amount: "10.420" }, { card_id: card.id, amount: 10.42 }].map((body) =>
            call(api.post(`/admin/payneteasy/orders/${order.id}/rebill`, body, admin)))
        )
        expect(again.filter((r) => r.status === 409).map((r) => r.data.type)).toEqual(["no_balance", "no_balance"])
        expect(again.filter((r) => r.status === 200).map((r) => r.data.rebill.replayed)).toEqual([true])
        expect(sandbox().control.requests().REBILL).toBe(before + 1)
      })
    }

    it("concurrent rebills written differently (amount omitted, \"10.42\", \"10.420\", 10.42, another card): one charge, the others 409 or the first one's result", async () => {
      const { order, card, headers } = await customerWithPaidOrder(eur)
      const cards = await secondCard(eur, order.customer_id, headers)
      await addItemByOrderEdit(eur, order.id)
      const before = gatewayCounts()
      const other = cards.find((c: any) => c.id !== card.id)
      const bodies = [{ card_id: card.id }, { card_id: card.id, amount: "10.42" }, { card_id: card.id, amount: "10.420" }, { card_id: card.id, amount: 10.42 }, { card_id: other.id }]
      const results = await Promise.all(bodies.map((body) => call(api.post(`/admin/payneteasy/orders/${order.id}/rebill`, body, admin))))
      const charged = results.filter((r) => r.status === 200 && r.data.rebill.replayed === false)
      expect(charged).toHaveLength(1)
      for (const r of results) {
        if (r === charged[0]) continue
        if (r.status === 200) expect(r.data.rebill).toMatchObject({ replayed: true, rebill_id: charged[0].data.rebill.rebill_id })
        else {
          expect(r.status).toBe(409)
          expect(["no_balance", "rebill_in_progress"]).toContain(r.data.type)
        }
      }
      expect(gatewayCounts()).toEqual({ REBILL: before.REBILL + 1, VOID: before.VOID })
      expect(outstanding(await orderView(order.id))).toBe("0")
      expect((await rebillRows(order.id)).filter((r) => r.state !== "failed")).toHaveLength(1)
    })

    it("a pending rebill blocks every other rebill of the order whatever the body (409 naming it), sequential or concurrent, and counts against the balance", async () => {
      const { order, card, headers } = await customerWithPaidOrder(eur)
      const cards = await secondCard(eur, order.customer_id, headers)
      const other = cards.find((c: any) => c.id !== card.id)
      await addItemByOrderEdit(eur, order.id)
      const url = `/admin/payneteasy/orders/${order.id}/rebill`
      // The gateway keeps the first rebill processing: no final answer, so it stays pending.
      const processing = sandbox().control.addFault({ operation: "REBILL", kind: "outcome", status: "processing" } as any)
      const before = gatewayCounts()
      try {
        const first = await call(api.post(url, { card_id: card.id, amount: "5" }, admin))
        expect(first.status).toBe(202)
        expect(first.data.rebill).toMatchObject({ state: "pending", amount: "5.00" })
        const pendingId = first.data.rebill.rebill_id
        const named = { type: "rebill_pending", rebill: { id: pendingId, amount: "5.00", currency_code: "eur", card_id: card.id } }
        const bodies = [{ card_id: card.id, amount: "5.00" }, { card_id: card.id }, { card_id: other.id, amount: "5" }, { card_id: card.id, amount: 1 }, { card_id: card.id, amount: "5" }]
        for (const body of bodies) {
          const res = await call(api.post(url, body, admin))
          expect([res.status, gatewayCounts().REBILL - before.REBILL]).toEqual([409, 1])
          expect(res.data).toMatchObject(named)
          expect(res.data.message).toContain(pendingId)
        }
        const concurrent = await Promise.all(bodies.map((body) => call(api.post(url, body, admin))))
        expect(concurrent.map((r) => r.status)).toEqual(bodies.map(() => 409))
        for (const r of concurrent) expect(r.data).toMatchObject(named)
        expect(gatewayCounts()).toEqual({ REBILL: before.REBILL + 1, VOID: before.VOID })
        expect((await rebillRows(order.id)).map((r) => r.state)).toEqual(["pending"])

        const balance = (await api.get(url, admin)).data.balance
        expect(balance).toMatchObject({ currency_code: "eur", outstanding: "10.42", pending_rebill: named.rebill, chargeable: "5.42", refusal: { type: "rebill_pending" } })
      } finally {
        sandbox().control.removeFault(processing.id)
      }
    })

    it("a rebill never touches an authorization: an order whose authorization covers its total is 409 'capture the authorized payment instead', nothing voided or sent", async () => {
      const { order: paid, card, headers } = await customerWithPaidOrder(eur)
      const orderId = await anotherOrder(eur, headers, PROVIDER_IDS.hosted)
      const before = gatewayCounts()
      const url = `/admin/payneteasy/orders/${orderId}/rebill`
      for (const body of [{ card_id: card.id }, { card_id: card.id, amount: "1" }]) {
        const res = await call(api.post(url, body, admin))
        expect(res.status).toBe(409)
        expect(res.data.type).toBe("capture_authorized")
        expect(res.data.message).toMatch(/capture the authorized payment instead/i)
      }
      expect(gatewayCounts()).toEqual(before)
      const view = await orderView(orderId)
      const payments = view.payment_collections.flatMap((c: any) => c.payments)
      expect(payments).toHaveLength(1)
      expect(payments[0].canceled_at).toBeNull()
      expect(view.payment_collections.map((c: any) => c.status)).toEqual(["authorized"])
      // What the widget reads: nothing to charge, and why.
      const balance = (await api.get(url, admin)).data.balance
      expect(balance).toMatchObject({ order_id: orderId, customer_id: paid.customer_id, paid: "0.00", authorized: "10.42", chargeable: "0.00", pending_rebill: null })
      expect(balance.refusal).toMatchObject({ type: "capture_authorized", message: expect.stringMatching(/capture the authorized payment instead/) })
    })

    it("a partly captured authorization still counts: 409 'capture the authorized payment instead' for the rest, nothing voided or sent", async () => {
      const { card, headers } = await customerWithPaidOrder(eur)
      const orderId = await anotherOrder(eur, headers, PROVIDER_IDS.hosted)
      const url = `/admin/payneteasy/orders/${orderId}/rebill`
      const authorization = (await orderView(orderId)).payment_collections.flatMap((c: any) => c.payments)[0]
      await api.post(`/admin/payments/${authorization.id}/capture`, { amount: 4 }, admin)
      const before = gatewayCounts()
      const view = await orderView(orderId)
      expect(outstanding(view)).toBe("6.42")
      const res = await call(api.post(url, { card_id: card.id }, admin))
      expect([res.status, res.data.type]).toEqual([409, "capture_authorized"])
      expect(gatewayCounts()).toEqual(before)
      expect((await api.get(url, admin)).data.balance).toMatchObject({ paid: "4.00", outstanding: "6.42", authorized: "6.42", chargeable: "0.00" })
      const after = await orderView(orderId)
      expect(after.payment_collections.flatMap((c: any) => c.payments).map((p: any) => [p.id, p.canceled_at])).toEqual([[authorization.id, null]])
    })

    it("a saved-card checkout is booked on its order by Medusa's completeCart: nothing outstanding, a rebill is refused for no balance", async () => {
      const { card, headers } = await customerWithPaidOrder(eur)
      const cart = (await api.post("/store/carts", {
        region_id: eur.regionId, sales_channel_id: eur.salesChannelId, items: [{ variant_id: eur.variantId, quantity: 1 }],
        shipping_address: { ...ADDRESS, country_code: eur.countryCode }, billing_address: { ...ADDRESS, country_code: eur.countryCode },
      }, { headers })).data.cart
      await api.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: eur.shippingOptionId }, { headers })
      const pc = await api.post("/store/payment-collections", { cart_id: cart.id }, { headers })
      await api.post(`/store/payment-collections/${pc.data.payment_collection.id}/payment-sessions`,
        { provider_id: PROVIDER_IDS.auto, data: { payer: payerFromCart(cart), card_id: card.id } }, { headers })
      const done = await api.post(`/store/carts/${cart.id}/complete`, {}, { headers })
      expect(done.data.type).toBe("order")
      const view = await orderView(done.data.order.id)
      expect(view.summary).toMatchObject({ pending_difference: 0 })
      expect(Number(view.summary.paid_total)).toBe(Number(view.total))
      const res = await call(api.post(`/admin/payneteasy/orders/${done.data.order.id}/rebill`, { card_id: card.id }, admin))
      expect(res.status).toBe(409)
      expect(res.data.type).toBe("no_balance")
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
      expect(again.data).toMatchObject({
        type: "rebill_pending", rebill: { id: row.id, amount: "10.42", card_id: card.id },
        message: expect.stringMatching(/has no recorded outcome yet.*check the order at the gateway/),
      })
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
      expect(tooMuch.data.message).toMatch(/at most 10.42 EUR/)
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

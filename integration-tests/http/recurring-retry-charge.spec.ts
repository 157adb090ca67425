/**
 * "Retry the charge" of a past-due subscription (issue 35), against the real app, Postgres and the sandbox over HTTP:
 * a registered customer's monthly subscription (the v4 registration, as recurring.spec.ts), a renewal the sandbox
 * declines (past due, in the attention queue with the retry and the card it charges), then
 * `POST /admin/payneteasy/recurring-payments/:id/retry-charge`: make-rebill on the subscription's card reference.
 * Approved → a paid renewal order, the subscription active, the attention item gone; declined → still past due, said
 * in words; not past due, no card, a stray field, unknown id, no admin → 4xx and nothing sent; a double submit
 * (one after the other, and at once) sends one make-rebill; a lost reply is settled by STATUS on the same
 * client_orderid, and with STATUS down too the answer is "pending", settled later by STATUS, never a second request.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { payHostedPage } from "../../src/sandbox"
import { TEST_APP_DIR } from "../helpers/paths"
import { PROVIDER_IDS } from "../helpers/provider-options"
import { useV4Registration, V4_PROVIDER } from "../helpers/v4-registration"
import { waitFor } from "../helpers/inspect"
import { toGatewayAmount } from "../../src/core/checkout/amounts"
import {
  addShippingMethod, createAdminUser, createCart, createPaymentCollection, initiatePaymentSession, payerFromCart, registerCustomer,
  seedStore, type AdminAuth, type StoreFixture,
} from "../helpers/store"

jest.setTimeout(300_000)

const sandbox = useV4Registration()

const CARD = { number: "4444555566661111", cvv2: "123", expMonth: "11", expYear: "2032", holder: "Retry Subscriber" }
// 2 × 10.42 + 4.99 shipping: what each period costs
const PER_PERIOD = "25.83"

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let eur: StoreFixture
    let admin: AdminAuth

    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      eur = await seedStore(getContainer(), {
        currency: "eur", unitPrice: "10.42", shippingPrice: "4.99", paymentProviders: [...Object.values(PROVIDER_IDS), V4_PROVIDER],
      })
      await getContainer().resolve(Modules.PRODUCT).updateProducts(eur.productId, { metadata: { payneteasy_recurring: { period: "month", interval: 1 } } })
    })
    afterEach(() => sandbox().control.clearFaults())

    const plugin = () => getContainer().resolve<any>("payneteasy")
    const buy = async (headers: Record<string, string>) => {
      const created = await createCart(api, eur, { quantity: 2 })
      await api.post(`/store/carts/${created.id}/customer`, {}, { headers })
      const cart = await addShippingMethod(api, eur, created.id)
      const collection = await createPaymentCollection(api, eur, cart.id)
      const { session } = await initiatePaymentSession(api, eur, collection.id, V4_PROVIDER, { payer: payerFromCart(cart) })
      await payHostedPage(session.data.redirectUrl, CARD)
      const done = (await api.post(`/store/carts/${cart.id}/complete`, {}, { headers })).data
      expect(done.type).toBe("order")
      return done.order
    }
    const listFor = async (orderId: string) =>
      (await api.get(`/admin/payneteasy/recurring-payments?order_id=${orderId}`, admin)).data.recurring_payments
    const chargeNow = async (rpId: string, outcome: "approved" | "declined") => {
      const res = await fetch(`${sandbox().origin}/__sandbox/recurring-payments/${rpId}/charge`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ outcome }),
      })
      expect(res.status).toBe(200)
      return (await res.json()) as { orderid: string }
    }
    const rebills = () => sandbox().control.requests().REBILL ?? 0
    const retryCharge = (id: string, body: Record<string, unknown> = {}, auth: AdminAuth | {} = admin) =>
      api.post(`/admin/payneteasy/recurring-payments/${id}/retry-charge`, body, auth).catch((e: any) => e.response)
    const attentionItem = async (orderId: string) =>
      (await api.get(`/admin/payneteasy/attention`, admin)).data.items.find((i: any) => i.kind === "renewal_declined" && i.order_id === orderId)

    /** A registered customer's subscription whose renewal the gateway declined: past due. */
    const pastDueSubscription = async (name: string) => {
      const customer = await registerCustomer(api, eur, name)
      const order = await buy(customer.headers)
      const [rp] = await waitFor(`the subscription of ${order.id}`, async () => {
        const list = await listFor(order.id)
        return list.length && list[0].status === "active" ? list : undefined
      })
      await chargeNow(rp.recurring_payment_id, "declined")
      const [pastDue] = await waitFor("past due", async () => {
        const list = await listFor(order.id)
        return list[0].status === "past_due" ? list : undefined
      })
      const [row] = await plugin().listPaynetEasyRecurringPayments({ id: rp.id })
      return { customer, order, rp: pastDue, cardRefId: row.card_ref_id as string }
    }
    const renewalOrder = async (id: string) => {
      const { data: [o] } = await getContainer().resolve(ContainerRegistrationKeys.QUERY).graph({
        entity: "order", fields: ["id", "total", "customer_id", "payment_collections.id", "metadata"], filters: { id },
      })
      const payments = await getContainer().resolve(Modules.PAYMENT).listPayments(
        { payment_collection_id: (o as any).payment_collections.map((c: any) => c.id) } as any, { relations: ["captures"] })
      return { order: o as any, payments: payments as any[] }
    }

    it("approved: one make-rebill on the subscription's card, a paid renewal order, active again, the attention item gone; a second click sends nothing", async () => {
      const { customer, order, rp } = await pastDueSubscription("retry-approved")
      expect(rp).toMatchObject({ status: "past_due", can_retry_charge: true, order_display_id: expect.any(Number) })
      // the attention item offers the retry, naming what it charges and where
      const item = await attentionItem(order.id)
      expect(item).toMatchObject({
        retry: null, what_to_do: expect.stringMatching(/Retry the charge/),
        retry_charge: { url: `/admin/payneteasy/recurring-payments/${rp.id}/retry-charge`, amount: PER_PERIOD, currency: "EUR", card: { last4: "1111" } },
      })
      const before = rebills()
      const res = await retryCharge(rp.id)
      expect(res.status).toBe(200)
      expect(res.data).toMatchObject({
        retry: { state: "succeeded", amount: PER_PERIOD, currency_code: "EUR", client_orderid: `${rp.id}-r1`, gateway_status: "approved",
          renewal_order_id: expect.stringMatching(/^order_/), resumed: false },
        recurring_payment: { id: rp.id, status: "active", reason: null, can_retry_charge: false },
        message: expect.stringMatching(/approved the charge of 25\.83 EUR.*active/),
      })
      expect(JSON.stringify(res.data)).not.toMatch(/card_ref_id|cardrefid/)
      expect(rebills() - before).toBe(1)
      const atGateway = sandbox().control.byClientOrderId(`${rp.id}-r1`)
      expect(atGateway).toHaveLength(1)
      expect(atGateway[0]).toMatchObject({ status: "approved" })
      // the renewal order is made the way a renewal is: same customer, the charge's total, its payment captured
      const { order: renewal, payments } = await renewalOrder(res.data.retry.renewal_order_id)
      expect(renewal.customer_id).toBe(customer.id)
      expect(toGatewayAmount(renewal.total, "EUR")).toBe(PER_PERIOD)
      expect(renewal.metadata).toMatchObject({ payneteasy_renewal_of: order.id, payneteasy_recurring_payment: rp.id })
      expect(payments).toHaveLength(1)
      expect(payments[0].captured_at).toBeTruthy()
      expect(payments[0].captures.map((c: any) => toGatewayAmount(c.amount, "EUR"))).toEqual([PER_PERIOD])
      // the list names the renewal order by its display id; the attention item is gone
      const [listed] = await listFor(order.id)
      const retried = listed.charges.find((c: any) => c.renewal_order_id === renewal.id)
      expect(retried).toMatchObject({ status: "approved", renewal_order_display_id: expect.any(Number) })
      expect(await attentionItem(order.id)).toBeUndefined()
      // the next scheduled charge is where the gateway's schedule has it: a retry does not move it
      expect(listed.next_charge_at).toBe(rp.next_charge_at)

      // a second click after it was approved: nothing to retry, nothing sent
      const again = await retryCharge(rp.id)
      expect([again.status, again.data.type, again.data.message]).toEqual([409, "not_past_due", expect.stringMatching(/not past due.*active.*nothing was charged/)])
      expect(rebills() - before).toBe(1)
      // the gateway's callback for the retry (server_callback_url) is processed and makes no second order
      await new Promise((r) => setTimeout(r, 1500))
      const orders = await getContainer().resolve(Modules.ORDER).listOrders({ customer_id: customer.id } as any, { select: ["id", "metadata"] })
      expect(orders.filter((o: any) => o.metadata?.payneteasy_recurring_payment === rp.id).map((o: any) => o.id)).toEqual([renewal.id])
    })

    it("declined: stays past due and says so in words; a new attention item for the new decline; retried again later and approved", async () => {
      const { order, rp, cardRefId } = await pastDueSubscription("retry-declined")
      sandbox().control.setCardRefBehaviour(cardRefId, "decline-funds")
      const before = rebills()
      const res = await retryCharge(rp.id)
      expect(res.status).toBe(400)
      expect(res.data).toMatchObject({
        type: "payment_declined", message: expect.stringMatching(/declined the charge of 25\.83 EUR: .*stays past due/),
        retry: { state: "failed", client_orderid: `${rp.id}-r1`, gateway_status: "declined", renewal_order_id: null },
        recurring_payment: { status: "past_due", reason: expect.stringMatching(/declined/), can_retry_charge: true },
      })
      expect(rebills() - before).toBe(1)
      const item = await attentionItem(order.id)
      expect(item).toMatchObject({ retry_charge: { amount: PER_PERIOD }, orderid: res.data.retry.gateway_order_id })
      // the card works again: a retry is a new attempt with its own client_orderid
      sandbox().control.setCardRefBehaviour(cardRefId, "approve")
      const ok = await retryCharge(rp.id)
      expect([ok.status, ok.data.retry.client_orderid, ok.data.recurring_payment.status]).toEqual([200, `${rp.id}-r2`, "active"])
      expect(rebills() - before).toBe(2)
    })

    it("refused with a 4xx in words and nothing sent: not past due, no card to charge (the item says to ask the customer), a stray field, an unknown id, no admin", async () => {
      const customer = await registerCustomer(api, eur, "retry-refused")
      const order = await buy(customer.headers)
      const [active] = await waitFor("active", async () => {
        const list = await listFor(order.id)
        return list.length && list[0].status === "active" ? list : undefined
      })
      const before = rebills()
      const notDue = await retryCharge(active.id)
      expect([notDue.status, notDue.data.type, notDue.data.message]).toEqual([409, "not_past_due", expect.stringMatching(/not past due/)])
      const stray = await retryCharge(active.id, { amount: "1.00" })
      expect(stray.status).toBe(400)
      expect((await retryCharge("pnerp_NOPE0000000000")).status).toBe(404)
      expect((await retryCharge(active.id, {}, {})).status).toBe(401)

      const { order: noCardOrder, rp } = await pastDueSubscription("retry-no-card")
      await plugin().updatePaynetEasyRecurringPayments({ id: rp.id, card_ref_id: null })
      const noCard = await retryCharge(rp.id)
      expect([noCard.status, noCard.data.type, noCard.data.message]).toEqual([409, "no_card", expect.stringMatching(/no card .*Ask the customer/)])
      const item = await attentionItem(noCardOrder.id)
      expect(item).toMatchObject({ retry_charge: null, what_to_do: expect.stringMatching(/cannot be retried from here: ask the customer/) })
      expect((await listFor(noCardOrder.id))[0]).toMatchObject({ status: "past_due", can_retry_charge: false })
      expect(rebills() - before).toBe(0)
      expect(await plugin().listPaynetEasyRebills({ recurring_payment_id: [active.id, rp.id] })).toEqual([])
    })

    it("two clicks at once: one make-rebill, one renewal order; the other request is told it is no longer past due", async () => {
      const { customer, rp } = await pastDueSubscription("retry-concurrent")
      const before = rebills()
      const answers = await Promise.all([retryCharge(rp.id), retryCharge(rp.id)])
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
      expect(answers.find((a) => a.status === 409).data.type).toMatch(/not_past_due|retry_in_progress/)
      expect(rebills() - before).toBe(1)
      const rows = await plugin().listPaynetEasyRebills({ recurring_payment_id: rp.id })
      expect(rows.map((r: any) => [r.client_orderid, r.state])).toEqual([[`${rp.id}-r1`, "succeeded"]])
      const orders = await getContainer().resolve(Modules.ORDER).listOrders({ customer_id: customer.id } as any, { select: ["id", "metadata"] })
      expect(orders.filter((o: any) => o.metadata?.payneteasy_recurring_payment === rp.id)).toHaveLength(1)
    })

    /** The make-rebill's reply spoiled by `kind`: the retry is settled by STATUS on `<rp>-r1`, with one make-rebill. */
    async function settledByStatusOnce(kind: "unreadable-200" | "response-lost", name: string) {
      const { rp } = await pastDueSubscription(name)
      const before = sandbox().control.requests()
      sandbox().control.addFault({ kind, operation: "REBILL", times: 1 })
      const settled = await retryCharge(rp.id)
      expect(settled.status).toBe(200)
      expect(settled.data).toMatchObject({ retry: { state: "succeeded", client_orderid: `${rp.id}-r1` }, recurring_payment: { status: "active" } })
      const after = sandbox().control.requests()
      expect((after.REBILL ?? 0) - (before.REBILL ?? 0)).toBe(1)
      expect((after.STATUS ?? 0) - (before.STATUS ?? 0)).toBeGreaterThanOrEqual(1)
      expect(sandbox().control.byClientOrderId(`${rp.id}-r1`)).toHaveLength(1)
    }

    it("an unreadable reply (HTTP 200, not a gateway answer) is settled by STATUS on the same client_orderid: one make-rebill", async () => {
      await settledByStatusOnce("unreadable-200", "retry-unreadable")
    })

    it("a lost reply is settled by STATUS on the same client_orderid; with STATUS down too it is pending, and the next click asks STATUS, never sends again", async () => {
      await settledByStatusOnce("response-lost", "retry-lost")

      // the reply lost and STATUS failing as well: the card may have been charged, so nothing is claimed either way
      const { rp: rp2 } = await pastDueSubscription("retry-lost-status")
      const before2 = rebills()
      sandbox().control.addFault({ kind: "response-lost", operation: "REBILL", times: 1 })
      // (its callback held back: this case is about the next click settling it by STATUS)
      sandbox().control.addFault({ kind: "callback-off", operation: "REBILL", times: 1 })
      sandbox().control.addFault({ kind: "http-500", operation: "STATUS", times: 1000 })
      const unknown = await retryCharge(rp2.id)
      sandbox().control.clearFaults()
      expect(unknown.status).toBe(202)
      expect(unknown.data).toMatchObject({
        type: "payment_pending", message: expect.stringMatching(/may have been charged.*nothing is sent twice/),
        retry: { state: "pending", client_orderid: `${rp2.id}-r1` }, recurring_payment: { status: "past_due" },
      })
      expect(rebills() - before2).toBe(1)
      // an admin rebill of the first order waits for it too (one unfinished charge per order)
      const [pending] = await plugin().listPaynetEasyRebills({ recurring_payment_id: rp2.id, state: "pending" })
      expect(pending.client_orderid).toBe(`${rp2.id}-r1`)
      // the next click: STATUS on the same client_orderid settles it; no second make-rebill, no new id
      const resumed = await retryCharge(rp2.id)
      expect(resumed.status).toBe(200)
      expect(resumed.data).toMatchObject({ retry: { state: "succeeded", client_orderid: `${rp2.id}-r1`, resumed: true }, recurring_payment: { status: "active" } })
      expect(rebills() - before2).toBe(1)
      expect(sandbox().control.byClientOrderId(`${rp2.id}-r1`)).toHaveLength(1)
      const [listed] = await listFor(rp2.order_id)
      expect(listed.charges.filter((c: any) => c.renewal_order_id)).toHaveLength(1)
    })
  },
})

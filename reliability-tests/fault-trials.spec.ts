/**
 * Fault trials: randomized (seeded) trials of the sandbox's faults — processed-but-reply-lost (response-lost),
 * connection reset, HTTP 500, added latency, callback lost (callback-off) — on the gateway operation behind each
 * Medusa action: direct authorize (PREAUTH), capture full and partial (CAPTURE), refund (RETURN), void (VOID) and
 * payout (PAYOUT), and paying a checkout with a saved card (REBILL: `data.card_id`, the card saved once in beforeAll).
 *
 * Each trial injects one fault for the next request of that operation, performs the action as the storefront or the
 * admin would (whatever it answers), clears the faults, lets reconciliation run (ticks looking a few seconds ahead)
 * and then requires, for the payment (or payout):
 *   - agreement to the minor unit: Medusa's payment amount = the gateway's authorized amount, Medusa's captures =
 *     the gateway's captured, Medusa's refunds = the gateway's returned, canceled ⇔ voided; for payouts, Medusa's
 *     status and amount = the gateway's; no approved gateway money for a payment Medusa does not have;
 *   - no double money movement: per session at most one approved authorization, and exactly as many approved
 *     gateway capture / return transactions as Medusa has captures / refunds; per payout at most one gateway order.
 * Prints trials, agreements and double charges.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import type { FaultRule, TransactionView } from "../src/sandbox"
import { toMinorUnits } from "../src/gateway/money"
import { reconcilePaynetEasy } from "../src/workflows/payneteasy/reconcile"
import { reconcilePayouts } from "../src/workflows/payneteasy/payouts/reconcile-payouts"
import { TEST_APP_DIR } from "../integration-tests/helpers/paths"
import { PROVIDER_IDS } from "../integration-tests/helpers/provider-options"
import { useSandbox } from "../integration-tests/helpers/sandbox"
import { ordersForCart, paymentsForSession } from "../integration-tests/helpers/inspect"
import {
  adminAndEurStore, checkoutToPaymentSession, completeCartResponse, customerHostedOrder, payerFromCart, registerCustomer,
  storeHeaders, type AdminAuth, type CustomerAuth, type StoreFixture,
} from "../integration-tests/helpers/store"
import { waitFor } from "../integration-tests/helpers/inspect"
import { printFigures } from "./helpers/figures"
import { RELIABILITY_SEED, rng } from "./helpers/random"

jest.setTimeout(600_000)

const sandbox = useSandbox()
const TRIALS = Number(process.env.RELIABILITY_FAULT_TRIALS ?? 100)
const SEED = RELIABILITY_SEED


type FaultKind = "response-lost" | "connection-reset" | "http-500" | "latency" | "callback-off"
const FAULTS: FaultKind[] = ["response-lost", "connection-reset", "http-500", "latency", "callback-off"]
const faultRule = (kind: FaultKind, operation: string, random: () => number): FaultRule =>
  kind === "latency" ? { kind, operation, ms: 100 + Math.floor(random() * 700), times: 1 } : { kind, operation, times: 1 }

const minor = (v: unknown) => toMinorUnits(String(v), "EUR")
const ahead = () => new Date(Date.now() + 6_000)
const plain = (x: unknown) => JSON.parse(JSON.stringify(x))

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let admin: AdminAuth
    let eur: StoreFixture
    let shopper: CustomerAuth
    let savedCardId = ""

    beforeAll(async () => {
      ;({ admin, eur } = await adminAndEurStore(api, getContainer()))
      // A logged-in customer with one saved card (a paid checkout with save_card), for the saved-card trials.
      shopper = await registerCustomer(api, eur, "fault")
      await customerHostedOrder(api, eur, shopper, {
        providerId: PROVIDER_IDS.auto, data: { save_card: true },
        card: { number: "4444555566661111", cvv2: "123", expMonth: "12", expYear: "2031", holder: "Fault Trial" },
        address: { first_name: "Fault", last_name: "Trial", address_1: "9 Fault St", city: "Berlin", postal_code: "10117", phone: "+49309999999" },
      })
      savedCardId = await waitFor("the saved card", async () => (await api.get("/store/payneteasy/cards", { headers: shopper.headers })).data.cards[0]?.id)
    })

    const gatewayOrdersOf = (sessionId: string): TransactionView[] =>
      sandbox().control.transactions().filter((o) => o.clientOrderId === sessionId || o.clientOrderId.startsWith(`${sessionId}-a`))
    /** Approved gateway transactions of one operation on a gateway order (RETURN's transactions are type "reversal"). */
    const approved = (o: TransactionView, operation: string) => o.transactions.filter((t) => t.operation === operation && t.status === "approved")

    /** Disagreements between Medusa's record of a session's payment and the gateway's (empty = agree). */
    async function sessionDisagreements(container: MedusaContainer, sessionId: string): Promise<{ problems: string[]; doubles: number }> {
      const payments = plain(await paymentsForSession(container, sessionId)) as any[]
      const orders = gatewayOrdersOf(sessionId)
      const authorized = orders.filter((o) => approved(o, "PREAUTH").length + approved(o, "SALE").length + approved(o, "REBILL").length > 0)
      const problems: string[] = []
      let doubles = 0
      if (authorized.length > 1) {
        doubles++
        problems.push(`${authorized.length} approved authorizations`)
      }
      if (payments.length > 1) problems.push(`${payments.length} Medusa payments`)
      const gw = authorized[0]
      const payment = payments[0]
      if (!payment) {
        if (gw && !gw.voided && minor(gw.authorized) > 0n) problems.push(`gateway authorized ${gw.authorized} but Medusa has no payment`)
        return { problems, doubles }
      }
      if (!gw) return { problems: [...problems, "Medusa has a payment the gateway never approved"], doubles }
      const captures = payment.captures ?? []
      const refunds = payment.refunds ?? []
      const sum = (list: any[]) => list.reduce((n: bigint, c: any) => n + minor(c.amount), 0n)
      if (minor(payment.amount) !== minor(gw.initialAmount)) problems.push(`amount ${payment.amount} vs gateway ${gw.initialAmount}`)
      if (sum(captures) !== minor(gw.captured)) problems.push(`captured ${sum(captures)} vs gateway ${gw.captured}`)
      if (sum(refunds) !== minor(gw.returned)) problems.push(`refunded ${sum(refunds)} vs gateway ${gw.returned}`)
      if (Boolean(payment.canceled_at) !== gw.voided) problems.push(`canceled ${Boolean(payment.canceled_at)} vs gateway voided ${gw.voided}`)
      const gwCaptures = approved(gw, "CAPTURE").length
      const gwReturns = approved(gw, "RETURN").length
      if (gwCaptures > captures.length || gwReturns > refunds.length || approved(gw, "VOID").length > 1) doubles++
      if (gwCaptures !== captures.length) problems.push(`${captures.length} Medusa captures vs ${gwCaptures} at the gateway`)
      if (gwReturns !== refunds.length) problems.push(`${refunds.length} Medusa refunds vs ${gwReturns} at the gateway`)
      return { problems, doubles }
    }

    async function payoutDisagreements(payoutId: string): Promise<{ problems: string[]; doubles: number }> {
      const { data } = await api.get(`/admin/payneteasy/payouts/${payoutId}`, admin)
      const p = data.payout
      const orders = sandbox().control.byClientOrderId(payoutId)
      const problems: string[] = []
      const doubles = orders.length > 1 ? 1 : 0
      if (orders.length > 1) problems.push(`${orders.length} gateway payouts`)
      const gw = orders[0]
      const gwStatus = gw?.status
      if (!gw) {
        if (!["failed"].includes(p.status)) problems.push(`payout ${p.status} but the gateway has none`)
      } else {
        const expected = gwStatus === "approved" ? "approved" : gwStatus === "processing" ? "processing" : undefined
        if (expected && p.status !== expected) problems.push(`payout ${p.status} vs gateway ${gwStatus}`)
        if (!expected && !["declined", "error", "filtered", "failed"].includes(p.status)) problems.push(`payout ${p.status} vs gateway ${gwStatus}`)
        if (minor(p.amount) !== minor(gw.initialAmount)) problems.push(`amount ${p.amount} vs gateway ${gw.initialAmount}`)
      }
      return { problems, doubles }
    }

    /**
     * A saved-card checkout (the session's creation is the REBILL): the gateway's rebills made during the trial
     * (`ordersBefore` = how many orders the sandbox had before) against the payments of the cart's collection.
     */
    async function rebillDisagreements(container: MedusaContainer, collectionId: string, ordersBefore: number): Promise<{ problems: string[]; doubles: number }> {
      const orders = sandbox().control.transactions().slice(ordersBefore).filter((o) => o.operation === "REBILL")
      const charged = orders.filter((o) => approved(o, "REBILL").length + approved(o, "SALE").length > 0 && !o.voided)
      const [collection] = await container.resolve(Modules.PAYMENT).listPaymentCollections({ id: collectionId }, { relations: ["payments", "payments.captures"] })
      const payments = plain(collection?.payments ?? []) as any[]
      const problems: string[] = []
      const doubles = charged.length > 1 ? 1 : 0
      if (charged.length > 1) problems.push(`${charged.length} approved rebills`)
      if (payments.length > 1) problems.push(`${payments.length} Medusa payments`)
      const gw = charged[0]
      const payment = payments[0]
      if (gw && !payment) problems.push(`the gateway charged ${gw.captured} but Medusa has no payment`)
      if (payment && !gw) problems.push("Medusa has a payment the gateway never charged")
      if (gw && payment) {
        const captured = (payment.captures ?? []).reduce((n: bigint, c: any) => n + minor(c.amount), 0n)
        if (minor(payment.amount) !== minor(gw.initialAmount)) problems.push(`amount ${payment.amount} vs gateway ${gw.initialAmount}`)
        if (captured !== minor(gw.captured)) problems.push(`captured ${captured} vs gateway ${gw.captured}`)
      }
      return { problems, doubles }
    }

    /** Reconciliation ticks until the check passes or ~20 s pass; returns the last verdict. */
    async function settle(container: MedusaContainer, check: () => Promise<{ problems: string[]; doubles: number }>) {
      let verdict = await check()
      for (let i = 0; i < 25 && verdict.problems.length; i++) {
        await new Promise((r) => setTimeout(r, 400))
        await reconcilePaynetEasy(container, { now: ahead })
        await reconcilePayouts(container, { now: ahead })
        verdict = await check()
      }
      return verdict
    }

    it(`≥${TRIALS} randomized fault trials: Medusa and the gateway agree to the minor unit, no double money movement`, async () => {
      const container = getContainer()
      const random = rng(SEED)
      const pick = <T,>(list: readonly T[]) => list[Math.floor(random() * list.length)]
      const results: Array<{ op: string; fault: string; problems: string[]; doubles: number; answer: number }> = []

      const trial = async (op: string, gatewayOp: string, action: () => Promise<number>, check: () => Promise<{ problems: string[]; doubles: number }>) => {
        const fault = pick(FAULTS)
        sandbox().control.addFault(faultRule(fault, gatewayOp, random))
        let answer = 0
        try {
          answer = await action()
        } finally {
          sandbox().control.clearFaults()
        }
        const verdict = await settle(container, check)
        results.push({ op, fault, answer, ...verdict })
        if (process.env.RELIABILITY_DEBUG) console.log(`trial ${op} ${fault} → ${answer} ${verdict.problems.join("; ")}`)
        return verdict
      }
      const adminPost = (path: string, body: unknown) => api.post(path, body, admin).then((r: any) => r.status, (e: any) => e.response?.status ?? 0)

      while (results.length < TRIALS) {
        if (random() < 0.15) {
          // Payout to a wallet (single method): the fault hits PAYOUT.
          let payoutId = ""
          const key = `fault-trial-${results.length}-${Date.now()}`
          await trial("payout", "PAYOUT", async () => {
            const res = await api
              .post("/admin/payneteasy/payouts", { method: "single", amount: `${1 + Math.floor(random() * 50)}.${String(Math.floor(random() * 100)).padStart(2, "0")}`, currency_code: "EUR", destination: { type: "wallet", wallet_id: "wallet-7788991" } }, { headers: { ...admin.headers, "idempotency-key": key } })
              .catch((e: any) => e.response)
            payoutId = res?.data?.payout?.id ?? ""
            return res?.status ?? 0
          }, () => (payoutId ? payoutDisagreements(payoutId) : Promise.resolve({ problems: ["no payout id"], doubles: 0 })))
          continue
        }
        if (random() < 0.3) {
          // A logged-in customer pays with the saved card: the session's creation sends REBILL (the fault hits it);
          // when the session comes back paid, the cart is completed.
          const { headers } = shopper
          const address = { first_name: "Fault", last_name: "Trial", address_1: "9 Fault St", city: "Berlin", postal_code: "10117", country_code: eur.countryCode, phone: "+49309999999" }
          const cart = (await api.post("/store/carts", {
            region_id: eur.regionId, sales_channel_id: eur.salesChannelId, items: [{ variant_id: eur.variantId, quantity: 1 }],
            shipping_address: address, billing_address: address,
          }, { headers })).data.cart
          await api.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: eur.shippingOptionId }, { headers })
          const collectionId = (await api.post("/store/payment-collections", { cart_id: cart.id }, { headers })).data.payment_collection.id
          const ordersBefore = sandbox().control.transactions().length
          await trial("saved-card payment", "REBILL", async () => {
            const res = await api
              .post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: PROVIDER_IDS.hosted, data: { payer: payerFromCart(cart), card_id: savedCardId } }, { headers })
              .catch((e: any) => e.response)
            const status = res?.data?.payment_collection?.payment_sessions?.[0]?.status
            if (status === "captured" || status === "authorized") await api.post(`/store/carts/${cart.id}/complete`, {}, { headers }).catch((e: any) => e.response)
            return res?.status ?? 0
          }, () => rebillDisagreements(container, collectionId, ordersBefore))
          continue
        }
        // A direct card payment: authorize under a fault, then a random script of capture / refund / void.
        const { cart, session } = await checkoutToPaymentSession(api, eur, PROVIDER_IDS.direct)
        const check = () => sessionDisagreements(container, session.id)
        await trial("authorize", "PREAUTH", async () => {
          const res = await api
            .post(`/store/payneteasy/payment-sessions/${session.id}/card`, { card: { number: "4444555566661111", cvv: "111", expMonth: "12", expYear: "2031", holder: "Fault Trial" } }, storeHeaders(eur))
            .catch((e: any) => e.response)
          if (res?.data?.payment_session?.status === "authorized") await completeCartResponse(api, eur, cart.id)
          return res?.status ?? 0
        }, check)
        const [orderId] = await ordersForCart(container, cart.id)
        const [payment] = plain(await paymentsForSession(container, session.id)) as any[]
        if (!orderId || !payment || payment.canceled_at) continue
        const total = minor(payment.amount)
        const script = pick(["partial-rest-refund", "full-refund", "void"] as const)
        if (script === "void") {
          await trial("void", "VOID", () => adminPost(`/admin/orders/${orderId}/cancel`, {}), check)
          continue
        }
        if (script === "partial-rest-refund") {
          const part = 1n + BigInt(Math.floor(random() * Number(total - 1n)))
          await trial("capture partial", "CAPTURE", () => adminPost(`/admin/payments/${payment.id}/capture`, { amount: Number(part) / 100 }), check)
        }
        const captured = (plain(await paymentsForSession(container, session.id))[0].captures ?? []).reduce((n: bigint, c: any) => n + minor(c.amount), 0n)
        if (captured < total) {
          await trial(captured === 0n ? "capture full" : "capture rest", "CAPTURE", () => adminPost(`/admin/payments/${payment.id}/capture`, {}), check)
        }
        const capturedNow = (plain(await paymentsForSession(container, session.id))[0].captures ?? []).reduce((n: bigint, c: any) => n + minor(c.amount), 0n)
        if (capturedNow > 0n) {
          const back = 1n + BigInt(Math.floor(random() * Number(capturedNow)))
          await trial("refund", "RETURN", () => adminPost(`/admin/payments/${payment.id}/refund`, { amount: Number(back) / 100 }), check)
        }
      }

      const agreements = results.filter((r) => r.problems.length === 0).length
      const doubles = results.reduce((n, r) => n + r.doubles, 0)
      const byOp = results.reduce<Record<string, number>>((m, r) => ((m[r.op] = (m[r.op] ?? 0) + 1), m), {})
      const byFault = results.reduce<Record<string, number>>((m, r) => ((m[r.fault] = (m[r.fault] ?? 0) + 1), m), {})
      printFigures({ "fault trials": results.length, agreements, "double charges": doubles, seed: SEED })
      printFigures({ "fault trials by operation": Object.entries(byOp).map(([k, v]) => `${k}×${v}`).join(" ") })
      printFigures({ "fault trials by fault": Object.entries(byFault).map(([k, v]) => `${k}×${v}`).join(" ") })
      expect(results.length).toBeGreaterThanOrEqual(TRIALS)
      expect(results.filter((r) => r.problems.length).map((r) => `${r.op} under ${r.fault} (answered ${r.answer}): ${r.problems.join("; ")}`)).toEqual([])
      expect(doubles).toBe(0)
    })
  },
})

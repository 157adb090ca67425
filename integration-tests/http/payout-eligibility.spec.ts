/**
 * Eligibility first (issue 51), end to end: a real Medusa app (Postgres), the plugin from source, the gateway sandbox
 * over HTTP, the admin API with a real admin token. The claims: a payout to a card, typed or saved, asks PAN
 * eligibility (its own client order id `<payout>-e`) before any money request; an ineligible card is refused in words
 * and no payout request is ever sent; the payout's history shows the check; a check still processing is settled by
 * its callback or by reconciliation, and only then the payout is sent, once; double submits (sequential and
 * concurrent), a lost reply and an unreadable reply on the check each make exactly one check and one payout; bank
 * payouts ask nothing.
 */
import { generateKeyPairSync } from "node:crypto"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { DEFAULT_SANDBOX_MERCHANT, payHostedPage } from "../../src/sandbox"
import { INELIGIBLE_TEST_PAN } from "../../src/sandbox/eligibility"
import { reconcilePayouts } from "../../src/workflows/payneteasy/payouts/reconcile-payouts"
import { TEST_APP_DIR } from "../helpers/paths"
import { PRIVATE_KEY_ENV } from "../helpers/provider-options"
import { useSandbox } from "../helpers/sandbox"
import { createAdminUser, registerCustomer, seedStore, type AdminAuth, type StoreFixture } from "../helpers/store"
import { PAYNETEASY_MODULE } from "../../src/modules/payneteasy"
import { waitFor } from "../helpers/inspect"
import { captureLogs } from "../helpers/log-capture"

jest.setTimeout(240_000)

const keys = generateKeyPairSync("rsa", { modulusLength: 2048 })
process.env[PRIVATE_KEY_ENV] = keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString()
const sandbox = useSandbox({
  merchants: [{
    ...DEFAULT_SANDBOX_MERCHANT,
    endpointIds: [...DEFAULT_SANDBOX_MERCHANT.endpointIds],
    endpointGroupIds: [...DEFAULT_SANDBOX_MERCHANT.endpointGroupIds],
    publicKeyPem: keys.publicKey.export({ type: "spki", format: "pem" }).toString(),
  }],
})

const CARD = "4444555566661111"
const logged = captureLogs()
afterAll(() => {
  delete process.env[PRIVATE_KEY_ENV]
})

let keyCounter = 0
const newKey = () => `elig-key-${Date.now()}-${++keyCounter}`

medusaIntegrationTestRunner({
  cwd: TEST_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    let admin: AdminAuth
    let eur: StoreFixture
    beforeAll(async () => {
      admin = await createAdminUser(api, getContainer())
      eur = await seedStore(getContainer(), { currency: "eur", unitPrice: "10.00" })
    })
    beforeEach(() => sandbox().control.clearFaults())

    const headers = (key?: string) => ({ headers: { ...admin.headers, ...(key ? { "idempotency-key": key } : {}) } })
    const create = (body: unknown, key = newKey()) =>
      api.post("/admin/payneteasy/payouts", body, headers(key)).catch((e: any) => e.response)
    const detail = async (id: string) => (await api.get(`/admin/payneteasy/payouts/${id}`, headers())).data.payout
    const requests = () => sandbox().control.requests()
    const delta = (before: Record<string, number>, op: string) => (requests()[op] ?? 0) - (before[op] ?? 0)
    const waitStatus = (id: string, statuses: string[]) =>
      waitFor(`payout ${id} in ${statuses.join("/")}`, async () => {
        const p = await detail(id)
        return statuses.includes(p.status) ? p : false
      })
    const events = (p: any) => p.history.map((h: any) => h.event).join("\n")
    /** The gateway's orders for the payout itself and for its check. */
    const payoutOrders = (id: string) => sandbox().control.byClientOrderId(id)
    const checkOrders = (id: string) => sandbox().control.byClientOrderId(`${id}-e`)
    const card = (number = CARD) => ({ type: "card", card_number: number })

    it("a typed eligible card: the check first (its own client order id), approved, then the payout; the history shows both", async () => {
      const before = requests()
      const res = await create({ method: "single", amount: "12.00", currency_code: "EUR", destination: card(), recipient: "Jane Roe" })
      expect(res.status).toBe(201)
      const done = await waitStatus(res.data.payout.id, ["approved"])
      expect(done.eligibility).toBe("eligible")
      expect(checkOrders(done.id)).toEqual([expect.objectContaining({ operation: "PAN_ELIGIBILITY_SEND", kind: "pan-eligibility", status: "approved" })])
      expect(payoutOrders(done.id)).toEqual([expect.objectContaining({ operation: "PAYOUT", status: "approved" })])
      expect(delta(before, "PAN_ELIGIBILITY_SEND")).toBe(1)
      expect(delta(before, "PAYOUT")).toBe(1)
      const text = events(done)
      expect(text).toMatch(new RegExp(`PAN eligibility asked \\(client order id ${done.id}-e\\)`))
      expect(text).toMatch(/PAN eligibility approved/)
      // the check comes before the money request in the history
      expect(text.indexOf("PAN eligibility approved")).toBeLessThan(text.indexOf("payout sent"))
      expect(JSON.stringify(done)).not.toContain(CARD)
    })

    it("a typed ineligible card is refused in words; no payout request is ever sent", async () => {
      const before = requests()
      const res = await create({ method: "single", amount: "12.00", currency_code: "EUR", destination: card(INELIGIBLE_TEST_PAN) })
      expect(res.status).toBe(201)
      const p = res.data.payout.status === "ineligible" ? res.data.payout : await waitStatus(res.data.payout.id, ["ineligible"])
      expect(p).toMatchObject({ status: "ineligible", eligibility: "ineligible", gateway_order_id: null })
      expect(p.error_message).toMatch(/This card cannot receive a payout: Card is not eligible .*no payout request was sent/)
      expect(delta(before, "PAYOUT")).toBe(0)
      expect(payoutOrders(p.id)).toHaveLength(0)
      expect(checkOrders(p.id)).toHaveLength(1)
      // final: reconciliation asks nothing more, and still sends nothing
      await reconcilePayouts(getContainer(), { now: () => new Date(Date.now() + 60_000) })
      expect(delta(before, "PAYOUT")).toBe(0)
      expect(JSON.stringify(await detail(p.id))).not.toContain(INELIGIBLE_TEST_PAN)
    })

    it("a two-step payout to an ineligible card: no payout-check either", async () => {
      const before = requests()
      const res = await create({ method: "two_step", amount: "3.00", currency_code: "EUR", destination: card(INELIGIBLE_TEST_PAN) })
      const p = res.data.payout.status === "ineligible" ? res.data.payout : await waitStatus(res.data.payout.id, ["ineligible"])
      expect(p.status).toBe("ineligible")
      expect(delta(before, "PAYOUT_V4_CHECK")).toBe(0)
    })

    it("a bank payout asks no eligibility", async () => {
      const before = requests()
      const res = await create({ method: "single", amount: "4.00", currency_code: "EUR", destination: { type: "bank", account_number: "LV80BANK0000435195001", bank_name: "B", bank_branch: "C" } })
      await waitStatus(res.data.payout.id, ["approved"])
      expect(delta(before, "PAN_ELIGIBILITY_SEND")).toBe(0)
      expect((await detail(res.data.payout.id)).eligibility).toBeNull()
    })

    it("a check still processing: the payout waits (eligibility_checking); the check's callback settles it by STATUS and the payout is sent once", async () => {
      sandbox().control.addFault({ kind: "outcome", operation: "PAN_ELIGIBILITY_SEND", status: "processing", times: 1 })
      const before = requests()
      const res = await create({ method: "single", amount: "7.00", currency_code: "EUR", destination: card() })
      const p = res.data.payout
      expect(p.status).toBe("eligibility_checking")
      expect(delta(before, "PAYOUT")).toBe(0)
      const [check] = checkOrders(p.id)
      sandbox().control.forceStatus(check.orderid, "approved")
      const done = await waitStatus(p.id, ["approved"])
      expect(done.history.some((h: any) => h.actor === "gateway:callback" && /PAN eligibility approved/.test(h.event))).toBe(true)
      // the reconciliation tick after it sends nothing more
      await reconcilePayouts(getContainer(), { now: () => new Date(Date.now() + 60_000) })
      expect(delta(before, "PAYOUT")).toBe(1)
      expect(delta(before, "PAN_ELIGIBILITY_SEND")).toBe(1)
    })

    it("a check whose callback never comes is settled by reconciliation; declined then → ineligible, nothing sent", async () => {
      sandbox().control.addFault({ kind: "outcome", operation: "PAN_ELIGIBILITY_SEND", status: "processing", times: 1 })
      sandbox().control.addFault({ kind: "callback-off", operation: "PAN_ELIGIBILITY_SEND", times: 1 })
      const before = requests()
      const res = await create({ method: "single", amount: "7.50", currency_code: "EUR", destination: card() })
      expect(res.data.payout.status).toBe("eligibility_checking")
      const [check] = checkOrders(res.data.payout.id)
      sandbox().control.forceStatus(check.orderid, "declined", "Card not eligible for credits")
      const done = await waitFor("reconciled check", async () => {
        await reconcilePayouts(getContainer(), { now: () => new Date(Date.now() + 60_000) })
        const d = await detail(res.data.payout.id)
        return d.status === "ineligible" ? d : false
      })
      expect(done.error_message).toMatch(/Card not eligible for credits/)
      expect(delta(before, "PAYOUT")).toBe(0)
    })

    it("double submits: the same key again (sequential) and five at once (concurrent) make one check and one payout", async () => {
      const body = { method: "single", amount: "5.55", currency_code: "EUR", destination: card() }
      const before = requests()
      const key = newKey()
      const a = await create(body, key)
      const b = await create(body, key)
      expect(b.status).toBe(200)
      expect(b.data.payout.id).toBe(a.data.payout.id)
      const concurrentKey = newKey()
      const many = await Promise.all(Array.from({ length: 5 }, () => create({ ...body, amount: "5.56" }, concurrentKey)))
      const ids = new Set(many.map((r) => r.data.payout.id))
      expect(ids.size).toBe(1)
      await waitStatus(a.data.payout.id, ["approved"])
      await waitStatus([...ids][0], ["approved"])
      expect(delta(before, "PAN_ELIGIBILITY_SEND")).toBe(2)
      expect(delta(before, "PAYOUT")).toBe(2)
      for (const id of [a.data.payout.id, ...ids]) {
        expect(checkOrders(id)).toHaveLength(1)
        expect(payoutOrders(id)).toHaveLength(1)
      }
    })

    it.each([
      ["a lost reply (response-lost)", { kind: "response-lost" }],
      ["an unreadable 200", { kind: "unreadable-200", variant: "truncated" }],
    ])("%s on the check: settled by STATUS on the check's id, never asked twice; one payout", async (_name, fault) => {
      sandbox().control.addFault({ ...(fault as any), operation: "PAN_ELIGIBILITY_SEND", times: 1 })
      const before = requests()
      const res = await create({ method: "single", amount: "6.10", currency_code: "EUR", destination: card() })
      expect(res.status).toBe(201)
      const done = await waitFor("settled after the lost check reply", async () => {
        await reconcilePayouts(getContainer(), { now: () => new Date(Date.now() + 60_000) })
        const d = await detail(res.data.payout.id)
        return d.status === "approved" ? d : false
      })
      expect(events(done)).toMatch(/PAN eligibility reply lost/)
      expect(delta(before, "PAN_ELIGIBILITY_SEND")).toBe(1)
      expect(delta(before, "PAYOUT")).toBe(1)
      expect(checkOrders(done.id)).toHaveLength(1)
    })

    it("a saved card: the check goes by its card reference; steered ineligible it is refused, nothing sent", async () => {
      const customer = await registerCustomer(api, eur, "elig", { address_1: "1 Payee St", city: "Riga", postal_code: "1010", country_code: "de", phone: "+37120000002" })
      const started = await api.post("/store/payneteasy/cards", {}, { headers: customer.headers })
      await payHostedPage(started.data.redirect_url, { number: "5555555555554444", cvv2: "123", expMonth: "07", expYear: "2031", holder: "Payee Person" })
      const saved = await waitFor("the verified card", async () => (await api.get(`/admin/payneteasy/customers/${customer.id}/cards`, headers())).data.cards[0])
      const [row] = await (getContainer().resolve(PAYNETEASY_MODULE) as any).listPaynetEasySavedCards({ id: saved.id })
      const ok = await create({ method: "single", amount: "2.00", currency_code: "EUR", destination: { type: "saved_card", card_id: saved.id } })
      const okDone = await waitStatus(ok.data.payout.id, ["approved"])
      expect(checkOrders(okDone.id)[0].cardRefId).toBe(row.card_ref_id)

      sandbox().control.setCardEligibility({ cardRefId: row.card_ref_id }, false)
      const before = requests()
      const res = await create({ method: "single", amount: "2.00", currency_code: "EUR", destination: { type: "saved_card", card_id: saved.id } })
      const p = res.data.payout.status === "ineligible" ? res.data.payout : await waitStatus(res.data.payout.id, ["ineligible"])
      expect(p.error_message).toMatch(/cannot receive a payout/)
      expect(delta(before, "PAYOUT")).toBe(0)
      expect(JSON.stringify(p)).not.toContain(row.card_ref_id)
    })

    it("no card number in the logs", () => {
      expect(logged.join("\n")).not.toContain(CARD)
      expect(logged.join("\n")).not.toContain(INELIGIBLE_TEST_PAN)
    })
  },
})

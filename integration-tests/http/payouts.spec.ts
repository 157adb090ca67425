/**
 * Payouts end to end: a real Medusa app (Postgres) with the plugin from source, the gateway sandbox over HTTP (with
 * this suite's RSA public key registered, the provider holding the private key), the admin API driven with a real
 * admin token. The claims: every method reaches every destination kind and ends with the status the gateway's
 * callback (confirmed by STATUS) gives; a declined check is never paid; bad input is refused with the field named and
 * nothing sent; a retried request, a lost reply or five admins confirming at once make exactly one gateway
 * transaction; no full card or account number is in the database or the logs; a customer's saved card is paid by its
 * card reference, read from the card row at send time and never stored on the payout or returned; the payout history
 * is append-only in the database itself (a trigger refuses UPDATE and DELETE).
 */
import { generateKeyPairSync } from "node:crypto"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { DEFAULT_SANDBOX_MERCHANT, payHostedPage } from "../../src/sandbox"
import { reconcilePayouts, reconcilePayoutWorkflow } from "../../src/workflows/payneteasy/payouts/reconcile-payouts"
import { PAYOUT_TICK_LOCK } from "../../src/core/payouts/reconcile-payouts"
import { underTickLock } from "../../src/core/locks/tick-lock"
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
const ACCOUNT = "LV80BANK0000435195001"
const DESTINATIONS = {
  card: { type: "card", card_number: CARD },
  bank: { type: "bank", account_number: ACCOUNT, bank_name: "Baltic Bank", bank_branch: "Riga Central" },
  wallet: { type: "wallet", wallet_id: "wallet-7788991" },
  phone: { type: "phone", phone: "+37120000001" },
} as const

/** Everything the suite writes to stdout / stderr / console (helpers/log-capture.ts). */
const logged = captureLogs()
afterAll(() => {
  delete process.env[PRIVATE_KEY_ENV]
})

/** Payouts whose `payoutReconciled` hook (a store's own step, our workflow's seam) fails: the step before it is undone. */
const failReconciledHook = new Set<string>()
reconcilePayoutWorkflow.hooks.payoutReconciled(async ({ id }: { id: string }) => {
  if (failReconciledHook.has(id)) throw new Error(`a store's payoutReconciled step failed for ${id}`)
})

/** Each step of a workflow run: how its invoke and its compensation ended. */
const stepStates = (transaction: any) => Object.fromEntries(Object.values(transaction.getFlow().steps as Record<string, any>)
  .filter((st) => st.definition?.action).map((st) => [st.definition.action, { invoke: st.invoke.state, compensate: st.compensate.state }]))

let keyCounter = 0
const newKey = () => `test-key-${Date.now()}-${++keyCounter}`

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
    const confirm = (id: string, key = newKey()) =>
      api.post(`/admin/payneteasy/payouts/${id}/confirm`, {}, headers(key)).catch((e: any) => e.response)
    const detail = async (id: string) => (await api.get(`/admin/payneteasy/payouts/${id}`, headers())).data.payout
    const requests = () => sandbox().control.requests()
    const waitStatus = (id: string, statuses: string[]) =>
      waitFor(`payout ${id} in ${statuses.join("/")}`, async () => {
        const p = await detail(id)
        return statuses.includes(p.status) ? p : false
      })
    /** The final status as the gateway's callback (confirmed by STATUS) wrote it into the history. */
    const waitCallback = (id: string, status: string) =>
      waitFor(`callback → ${status} for payout ${id}`, async () => {
        const p = await detail(id)
        return p.history.some((h: any) => h.actor === "gateway:callback" && h.to_status === status) ? p : false
      })
    const gatewayOrders = (payoutId: string) => sandbox().control.byClientOrderId(payoutId)

    it("attention: a two-step payout the gateway checked waits for confirmation in the queue (amount, payout); handled with a note; once confirmed it is no longer listed", async () => {
      const res = await create({ method: "two_step", amount: "21.50", currency_code: "EUR", destination: DESTINATIONS.bank, recipient: "Jane Roe" })
      const p = res.data.payout.status === "checked" ? res.data.payout : await waitStatus(res.data.payout.id, ["checked"])
      const attention = async (handled = "false") =>
        (await api.get(`/admin/payneteasy/attention?handled=${handled}&limit=100`, headers())).data.items.find((i: any) => i.id === p.id)
      expect(await attention()).toMatchObject({
        kind: "payout_awaiting_confirmation", payout_id: p.id, amount: "21.50", currency: "EUR", handled: null,
        title: expect.stringMatching(/21\.50 EUR/), what_to_do: expect.stringMatching(/confirm/), detail: expect.stringMatching(/Jane Roe/),
      })
      expect(JSON.stringify(await attention())).not.toContain(ACCOUNT)
      const marked = await api.post(`/admin/payneteasy/attention/${p.id}/handled`, { note: "asked finance to confirm" }, headers())
      expect(marked.data.item.handled).toMatchObject({ by: admin.userId, note: "asked finance to confirm" })
      expect(await attention()).toBeUndefined()
      expect(await attention("true")).toMatchObject({ id: p.id, handled: { note: "asked finance to confirm" } })
      expect((await confirm(p.id)).status).toBe(200)
      await waitStatus(p.id, ["processing", "approved"])
      expect(await attention("all")).toBeUndefined()
    })

    it("answers 401 without admin authentication and sends nothing", async () => {
      const before = requests()
      const body = { method: "single", amount: "10.00", currency_code: "EUR", destination: DESTINATIONS.wallet }
      const noAuth = { headers: { "idempotency-key": newKey() } }
      expect((await api.post("/admin/payneteasy/payouts", body, noAuth).catch((e: any) => e.response)).status).toBe(401)
      expect((await api.get("/admin/payneteasy/payouts").catch((e: any) => e.response)).status).toBe(401)
      expect((await api.get("/admin/payneteasy/payouts/pnepo_x").catch((e: any) => e.response)).status).toBe(401)
      expect((await api.post("/admin/payneteasy/payouts/pnepo_x/confirm", {}, noAuth).catch((e: any) => e.response)).status).toBe(401)
      expect(requests()).toEqual(before)
    })

    describe.each(Object.entries(DESTINATIONS))("destination %s", (kind, destination) => {
      it("single-step (v2 payout): processing, then approved from the callback confirmed by STATUS; one info line for the money that moved", async () => {
        const logger = getContainer().resolve(ContainerRegistrationKeys.LOGGER)
        const info = jest.spyOn(logger, "info")
        const res = await create({ method: "single", amount: "12.34", currency_code: "EUR", destination, recipient: "Jane Roe", purpose: `refund ${kind}` })
        expect(res.status).toBe(201)
        const p = res.data.payout
        expect(p).toMatchObject({ method: "single", amount: "12.34", currency_code: "EUR", destination: { type: kind } })
        expect(JSON.stringify(res.data)).not.toContain(CARD)
        expect(JSON.stringify(res.data)).not.toContain(ACCOUNT)
        const done = await waitCallback(p.id, "approved")
        expect(done.status).toBe("approved")
        expect(done.gateway_order_id).toBeTruthy()
        expect(done.created_by).toBe(`user:${admin.userId}`)
        const [order] = gatewayOrders(p.id)
        expect(order).toMatchObject({ operation: "PAYOUT", status: "approved", initialAmount: "12.34", destination: { kind } })
        expect(gatewayOrders(p.id)).toHaveLength(1)
        // the payout's movement, once, with its ids (core/telemetry/payment-log.ts); nothing of the destination
        const lines = info.mock.calls.map(([m]) => String(m)).filter((m) => m.includes(p.id))
        info.mockRestore()
        expect(lines).toEqual([`PaynetEasy: payout paid 12.34 EUR (gateway approved) [payout=${p.id} gateway_order=${done.gateway_order_id} client_order=${p.id}]`])
      })

      it("two-step (v4 check, confirm, pay): checked, then paid once and approved from the callback", async () => {
        const res = await create({ method: "two_step", amount: "20.00", currency_code: "EUR", destination })
        expect(res.status).toBe(201)
        const checked = res.data.payout.status === "checked" ? res.data.payout : await waitStatus(res.data.payout.id, ["checked"])
        expect(checked).toMatchObject({ status: "checked", can_confirm: true, check_serial: expect.any(String) })
        const [check] = gatewayOrders(checked.id)
        expect(check).toMatchObject({ operation: "PAYOUT_V4_CHECK", transactionType: "payout-check", status: "approved", destination: { kind } })
        const c = await confirm(checked.id)
        expect(c.status).toBe(200)
        expect(c.data.payout.confirmed_by).toBe(`user:${admin.userId}`)
        const done = await waitCallback(checked.id, "approved")
        // The history rides along so a failure shows how the payout got where it is.
        const trail = done.history.map((h: any) => `${h.actor}: ${h.from_status}→${h.to_status} (${h.event})`)
        expect({ status: done.status, trail }).toEqual({ status: "approved", trail })
        expect(done.history.map((h: any) => h.to_status)).toEqual(expect.arrayContaining(["pending", "checked", "processing", "approved"]))
        expect(gatewayOrders(checked.id)[0].transactions.map((t: any) => t.type)).toEqual(["payout-check", "payout"])
      })
    })

    it("hosted form: the address is returned; the recipient enters a card there; approved from the callback", async () => {
      const res = await create({ method: "form", amount: "7.50", currency_code: "EUR", purpose: "winnings" })
      expect(res.status).toBe(201)
      const p = res.data.payout
      expect(p.status).toBe("form_issued")
      expect(p.form_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/paynet\/form\//)
      expect(p.destination).toBeNull()
      await payHostedPage(p.form_url, { number: CARD, cvv2: "", expMonth: "12", expYear: "2099", holder: "JANE ROE" })
      const done = await waitCallback(p.id, "approved")
      expect(done.status).toBe("approved")
    })

    it("JPY (exponent 0) pays whole yen", async () => {
      const res = await create({ method: "single", amount: "1500", currency_code: "JPY", destination: DESTINATIONS.wallet })
      expect(res.status).toBe(201)
      expect(res.data.payout.amount).toBe("1500")
      await waitStatus(res.data.payout.id, ["approved"])
    })

    it("a declined check ends check_declined, and confirming it is refused with nothing sent", async () => {
      sandbox().control.addFault({ kind: "outcome", operation: "PAYOUT_V4_CHECK", status: "declined", times: 1 })
      const res = await create({ method: "two_step", amount: "30.00", currency_code: "EUR", destination: DESTINATIONS.card })
      const p = res.data.payout.status === "check_declined" ? res.data.payout : await waitStatus(res.data.payout.id, ["check_declined"])
      expect(p).toMatchObject({ status: "check_declined", can_confirm: false, error_code: expect.any(String) })
      const before = requests().PAYOUT_V4_PAY ?? 0
      const c = await confirm(p.id)
      expect(c.status).toBe(409)
      expect(c.data.message).toMatch(/declined/)
      expect(requests().PAYOUT_V4_PAY ?? 0).toBe(before)
      expect(gatewayOrders(p.id)[0].transactions).toHaveLength(1)
      expect((await detail(p.id)).status).toBe("check_declined")
    })

    it("a single payout cannot be confirmed", async () => {
      const res = await create({ method: "single", amount: "1.00", currency_code: "EUR", destination: DESTINATIONS.phone })
      expect((await confirm(res.data.payout.id)).status).toBe(409)
    })

    const valid = { method: "single", amount: "10.00", currency_code: "EUR", destination: DESTINATIONS.card }
    const BAD: Array<[string, Record<string, unknown>, string, RegExp?]> = [
      ["non-Luhn card number", { ...valid, destination: { type: "card", card_number: "4444555566661112" } }, "destination.card_number", /Luhn/],
      ["card number too short", { ...valid, destination: { type: "card", card_number: "4444" } }, "destination.card_number"],
      ["more decimals than EUR has", { ...valid, amount: "10.001" }, "amount", /decimals/],
      ["decimals for JPY", { ...valid, amount: "10.5", currency_code: "JPY" }, "amount", /decimals/],
      ["zero amount", { ...valid, amount: "0.00" }, "amount", /greater than zero/],
      ["negative amount", { ...valid, amount: "-5.00" }, "amount"],
      ["amount as a number", { ...valid, amount: 10 }, "amount"],
      ["unknown currency", { ...valid, currency_code: "ABC" }, "currency_code", /ISO 4217/],
      ["currency not allowed for payouts", { ...valid, currency_code: "USD" }, "currency_code", /not allowed/],
      ["above the per-payout limit", { ...valid, amount: "1000.01" }, "amount", /limit/],
      ["missing destination", { method: "single", amount: "10.00", currency_code: "EUR" }, "destination", /required/],
      ["conflicting destination fields", { ...valid, destination: { type: "card", card_number: CARD, account_number: ACCOUNT } }, "destination.account_number", /unexpected/],
      ["destination for the hosted form", { ...valid, method: "form" }, "destination", /omitted/],
      ["unknown destination type", { ...valid, destination: { type: "crypto", address: "x" } }, "destination.type"],
      ["bank without branch", { ...valid, destination: { type: "bank", account_number: ACCOUNT, bank_name: "B" } }, "destination.bank_branch"],
      ["over-long recipient", { ...valid, recipient: "x".repeat(129) }, "recipient", /at most 128/],
      ["over-long purpose", { ...valid, purpose: "x".repeat(256) }, "purpose", /at most 255/],
      ["over-long account number", { ...valid, destination: { ...DESTINATIONS.bank, account_number: "1".repeat(35) } }, "destination.account_number"],
      ["unknown method", { ...valid, method: "instant" }, "method"],
      ["unknown top-level field", { ...valid, fee: "1.00" }, "fee", /unexpected/],
      ["malformed saved card id", { ...valid, destination: { type: "saved_card", card_id: "card_123" } }, "destination.card_id", /saved card id/],
      ["unknown saved card", { ...valid, destination: { type: "saved_card", card_id: "pnecard_01UNKNOWNCARD0000000000" } }, "destination.card_id", /not found/],
      ["saved card with a card number", { ...valid, destination: { type: "saved_card", card_id: "pnecard_01UNKNOWNCARD0000000000", card_number: CARD } }, "destination.card_number", /unexpected/],
    ]

    it.each(BAD.map(([name, body, field, message]) => ({ name, body, field, message })))("400 for $name, naming the field; nothing sent, nothing stored", async ({ body, field, message }) => {
      const before = requests()
      const res = await create(body)
      expect(res.status).toBe(400)
      expect(res.data.field).toBe(field)
      if (message) expect(res.data.message).toMatch(message)
      expect(JSON.stringify(res.data)).not.toContain(CARD)
      expect(requests()).toEqual(before)
      expect((await api.get("/admin/payneteasy/payouts", headers())).data.count).toBe(0)
    })

    it("400 without an Idempotency-Key; nothing sent", async () => {
      const before = requests()
      const res = await api.post("/admin/payneteasy/payouts", valid, headers()).catch((e: any) => e.response)
      expect(res.status).toBe(400)
      expect(res.data.field).toBe("Idempotency-Key")
      expect(requests()).toEqual(before)
    })

    it("the same Idempotency-Key twice (a retried request) gives one payout and one gateway request; another body with it is 409", async () => {
      const key = newKey()
      const body = { method: "single", amount: "5.55", currency_code: "EUR", destination: DESTINATIONS.wallet }
      const [a, b] = await Promise.all([create(body, key), create(body, key)])
      expect([a.status, b.status].sort()).toEqual([200, 201])
      expect(a.data.payout.id).toBe(b.data.payout.id)
      const again = await create(body, key)
      expect(again.status).toBe(200)
      expect(again.data.payout.id).toBe(a.data.payout.id)
      expect(gatewayOrders(a.data.payout.id)).toHaveLength(1)
      expect(requests().PAYOUT).toBeGreaterThanOrEqual(1)
      const other = await create({ ...body, amount: "5.56" }, key)
      expect(other.status).toBe(409)
      expect((await api.get("/admin/payneteasy/payouts", headers())).data.count).toBe(1)
    })

    it("a lost reply on the payout is resolved by STATUS by client_orderid: one transaction, adopted, approved", async () => {
      sandbox().control.addFault({ kind: "response-lost", operation: "PAYOUT", times: 1 })
      const before = requests()
      const res = await create({ method: "single", amount: "9.99", currency_code: "EUR", destination: DESTINATIONS.card })
      expect(res.status).toBe(201)
      const p = res.data.payout
      expect(p.gateway_order_id).toBeTruthy()
      expect(requests().PAYOUT - (before.PAYOUT ?? 0)).toBe(1) // never re-sent: STATUS found it
      expect(requests().STATUS - (before.STATUS ?? 0)).toBeGreaterThanOrEqual(1)
      expect(gatewayOrders(p.id)).toHaveLength(1)
      const done = await waitStatus(p.id, ["approved"])
      expect(done.history.map((h: any) => h.event).join("\n")).toMatch(/adopted the gateway.s transaction after a lost reply/)
    })

    it("a lost reply while STATUS is down stays pending (never re-sent); reconciliation adopts the gateway's transaction", async () => {
      sandbox().control.addFault({ kind: "response-lost", operation: "PAYOUT", times: 1 })
      sandbox().control.addFault({ kind: "http-500", operation: "STATUS", times: 20 })
      const before = requests()
      const res = await create({ method: "single", amount: "8.88", currency_code: "EUR", destination: DESTINATIONS.wallet })
      expect(res.status).toBe(201)
      expect(res.data.payout).toMatchObject({ status: "pending", gateway_order_id: null })
      expect(gatewayOrders(res.data.payout.id)).toHaveLength(1) // the gateway did make it
      sandbox().control.clearFaults()
      const later = () => new Date(Date.now() + 60_000)
      const done = await waitFor("reconciled lost payout", async () => {
        await reconcilePayouts(getContainer(), { now: later })
        const d = await detail(res.data.payout.id)
        return d.status === "approved" ? d : false
      })
      expect(done.gateway_order_id).toBe(gatewayOrders(res.data.payout.id)[0].orderid)
      expect(requests().PAYOUT - (before.PAYOUT ?? 0)).toBe(1)
      expect(gatewayOrders(res.data.payout.id)).toHaveLength(1)
    })

    it("a lost reply on payout-pay: one pay transaction, approved", async () => {
      const res = await create({ method: "two_step", amount: "15.00", currency_code: "EUR", destination: DESTINATIONS.bank })
      const p = res.data.payout.status === "checked" ? res.data.payout : await waitStatus(res.data.payout.id, ["checked"])
      sandbox().control.addFault({ kind: "response-lost", operation: "PAYOUT_V4_PAY", times: 1 })
      const before = requests().PAYOUT_V4_PAY ?? 0
      const c = await confirm(p.id)
      expect(c.status).toBe(200)
      expect(c.data.payout.status).toMatch(/processing|approved/)
      expect((requests().PAYOUT_V4_PAY ?? 0) - before).toBe(1)
      await waitStatus(p.id, ["approved"])
      expect(gatewayOrders(p.id)[0].transactions.map((t: any) => t.type)).toEqual(["payout-check", "payout"])
    })

    // Issue 32 defect 5: an unreadable 200 (the gateway processed the payout, its reply cannot be read) is "maybe
    // sent": settled by STATUS on the same client_orderid, never marked failed "before anything was sent".
    it.each(["garbage", "truncated", "wrong-content-type"])(
      "an unreadable 200 (%s) on the v2 payout is settled by STATUS: never failed, one transaction, a retry replays",
      async (variant) => {
        sandbox().control.addFault({ kind: "unreadable-200", variant: variant as any, operation: "PAYOUT", times: 1 })
        const before = requests()
        const key = newKey()
        const body = { method: "single", amount: "7.77", currency_code: "EUR", destination: DESTINATIONS.wallet }
        const res = await create(body, key)
        const trail = (res.data?.payout?.history ?? []).map((h: any) => `${h.to_status} (${h.event})`)
        expect({ status: res.status, payout: res.data?.payout?.status, trail }).toEqual({
          status: 201, payout: expect.stringMatching(/^(processing|approved)$/), trail,
        })
        const p = res.data.payout
        expect(p.gateway_order_id).toBe(gatewayOrders(p.id)[0].orderid)
        expect(requests().PAYOUT - (before.PAYOUT ?? 0)).toBe(1)
        expect((await detail(p.id)).history.map((h: any) => h.event).join("\n")).toMatch(/adopted the gateway.s transaction after a lost reply/)
        const again = await create(body, key)
        expect({ status: again.status, id: again.data.payout.id }).toEqual({ status: 200, id: p.id }) // a replay
        expect(requests().PAYOUT - (before.PAYOUT ?? 0)).toBe(1)
        await waitStatus(p.id, ["approved"])
        expect(gatewayOrders(p.id)).toHaveLength(1)
      }
    )

    it("an unreadable 200 on the payout while STATUS cannot tell either: pending with an attention trail, never failed; reconciliation settles it", async () => {
      sandbox().control.addFault({ kind: "unreadable-200", operation: "PAYOUT", times: 1 })
      sandbox().control.addFault({ kind: "unreadable-200", variant: "truncated", operation: "STATUS", times: 20 })
      const before = requests()
      const res = await create({ method: "single", amount: "6.66", currency_code: "EUR", destination: DESTINATIONS.phone })
      expect(res.status).toBe(201)
      expect(res.data.payout).toMatchObject({ status: "pending", gateway_order_id: null })
      expect(gatewayOrders(res.data.payout.id)).toHaveLength(1)
      sandbox().control.clearFaults()
      const done = await waitFor("reconciled unreadable payout", async () => {
        await reconcilePayouts(getContainer(), { now: () => new Date(Date.now() + 60_000) })
        const d = await detail(res.data.payout.id)
        return d.status === "approved" ? d : false
      })
      expect(done.history.map((h: any) => h.to_status)).not.toContain("failed")
      expect(requests().PAYOUT - (before.PAYOUT ?? 0)).toBe(1)
      expect(gatewayOrders(res.data.payout.id)).toHaveLength(1)
    })

    it("an unreadable 200 on the v4 check and on the v4 pay: each settled by STATUS, one check and one pay", async () => {
      sandbox().control.addFault({ kind: "unreadable-200", operation: "PAYOUT_V4_CHECK", times: 1 })
      const res = await create({ method: "two_step", amount: "16.00", currency_code: "EUR", destination: DESTINATIONS.bank })
      expect(res.status).toBe(201)
      expect(res.data.payout.status).not.toBe("failed")
      const p = res.data.payout.status === "checked" ? res.data.payout : await waitStatus(res.data.payout.id, ["checked"])
      sandbox().control.addFault({ kind: "unreadable-200", variant: "wrong-content-type", operation: "PAYOUT_V4_PAY", times: 1 })
      const before = requests().PAYOUT_V4_PAY ?? 0
      const c = await confirm(p.id)
      expect({ status: c.status, payout: c.data.payout.status }).toEqual({ status: 200, payout: expect.stringMatching(/^(processing|approved)$/) })
      expect((requests().PAYOUT_V4_PAY ?? 0) - before).toBe(1)
      await waitStatus(p.id, ["approved"])
      expect(gatewayOrders(p.id)[0].transactions.map((t: any) => t.type)).toEqual(["payout-check", "payout"])
    })

    it("five concurrent confirms (five admins / keys) give exactly one pay; the winner's key replays", async () => {
      const res = await create({ method: "two_step", amount: "40.00", currency_code: "EUR", destination: DESTINATIONS.phone })
      const p = res.data.payout.status === "checked" ? res.data.payout : await waitStatus(res.data.payout.id, ["checked"])
      const before = requests().PAYOUT_V4_PAY ?? 0
      const keysUsed = Array.from({ length: 5 }, () => newKey())
      const answers = await Promise.all(keysUsed.map((k) => confirm(p.id, k)))
      const statuses = answers.map((a) => a.status).sort()
      expect(statuses).toEqual([200, 409, 409, 409, 409])
      expect((requests().PAYOUT_V4_PAY ?? 0) - before).toBe(1)
      const winner = keysUsed[answers.findIndex((a) => a.status === 200)]
      const replay = await confirm(p.id, winner)
      expect(replay.status).toBe(200)
      expect((requests().PAYOUT_V4_PAY ?? 0) - before).toBe(1)
      await waitStatus(p.id, ["approved"])
      expect(gatewayOrders(p.id)[0].transactions.filter((t: any) => t.type === "payout")).toHaveLength(1)
    })

    it("a payout that stays processing with no callback is finished by reconciliation (STATUS)", async () => {
      sandbox().control.addFault({ kind: "outcome", operation: "PAYOUT", status: "processing", times: 1 })
      sandbox().control.addFault({ kind: "callback-off", operation: "PAYOUT", times: 1 })
      const res = await create({ method: "single", amount: "3.00", currency_code: "EUR", destination: DESTINATIONS.wallet })
      const p = res.data.payout
      expect(p.status).toBe("processing")
      const [order] = gatewayOrders(p.id)
      sandbox().control.forceStatus(order.orderid, "declined", "Insufficient funds at the recipient bank")
      const later = () => new Date(Date.now() + 60_000)
      await waitFor("reconciled payout", async () => {
        await reconcilePayouts(getContainer(), { now: later })
        const d = await detail(p.id)
        return d.status === "declined" ? d : false
      })
      const d = await detail(p.id)
      expect(d.error_message).toMatch(/Insufficient funds/)
      expect(d.history.some((h: any) => h.actor === "gateway:status" && h.to_status === "declined")).toBe(true)
    })

    it("the payout reconciliation workflow: a later step failing undoes the scheduled next check and releases the payout's lock", async () => {
      sandbox().control.addFault({ kind: "outcome", operation: "PAYOUT", status: "processing", times: 1 })
      sandbox().control.addFault({ kind: "callback-off", operation: "PAYOUT", times: 1 })
      const res = await create({ method: "single", amount: "4.00", currency_code: "EUR", destination: DESTINATIONS.wallet })
      const id = res.data.payout.id
      expect(res.data.payout.status).toBe("processing")
      const svc = getContainer().resolve<any>(PAYNETEASY_MODULE)
      const row = async () => (await svc.listPaynetEasyPayouts({ id }, { take: 1 }))[0]
      const checkedAt = new Date(Date.now() + 60_000).toISOString()
      const run = () => reconcilePayoutWorkflow(getContainer()).run({ input: { id, checkedAt, lockOwner: `test-${Date.now()}` }, throwOnError: false })
      // the scheduled job keeps off while this holds its tick lock
      await underTickLock(getContainer(), PAYOUT_TICK_LOCK, async () => {
        const before = await row()
        const statusAsked = requests().STATUS ?? 0
        failReconciledHook.add(id)
        const failed = await run()
        expect(failed.errors.map((e: any) => e.error?.message)).toEqual([expect.stringMatching(/payoutReconciled step failed/)])
        expect(failed.transaction.getState()).toBe("reverted")
        expect((requests().STATUS ?? 0) - statusAsked).toBe(1)
        expect(stepStates(failed.transaction)["payneteasy-payout-schedule-check"]).toEqual({ invoke: "done", compensate: "reverted" })
        const undone = await row()
        // the step ran (STATUS asked, the next check written), then was undone: the row is as before
        expect({ status: undone.status, checks: undone.checks, next: new Date(undone.next_check_at).getTime() })
          .toEqual({ status: "processing", checks: before.checks, next: new Date(before.next_check_at).getTime() })
        failReconciledHook.delete(id)
        // the lock was released by the undo: the same workflow runs again at once and schedules the next check
        const t0 = Date.now()
        const ok = await run()
        expect(ok.errors).toEqual([])
        expect(Date.now() - t0).toBeLessThan(30_000)
        const scheduled = await row()
        expect(scheduled.checks).toBe(before.checks + 1)
        expect(new Date(scheduled.next_check_at).getTime()).toBeGreaterThan(new Date(checkedAt).getTime())
      })
      sandbox().control.forceStatus(gatewayOrders(id)[0].orderid, "approved")
    })

    it("lists with status filter and pagination; detail has the history", async () => {
      const a = await create({ method: "single", amount: "1.00", currency_code: "EUR", destination: DESTINATIONS.wallet })
      await create({ method: "form", amount: "2.00", currency_code: "EUR" })
      await waitStatus(a.data.payout.id, ["approved"])
      const all = (await api.get("/admin/payneteasy/payouts?limit=1", headers())).data
      expect(all).toMatchObject({ count: 2, limit: 1, offset: 0 })
      expect(all.payouts).toHaveLength(1)
      const forms = (await api.get("/admin/payneteasy/payouts?status=form_issued", headers())).data
      expect(forms.payouts.map((x: any) => x.method)).toEqual(["form"])
      const d = await detail(a.data.payout.id)
      expect(d.history[0]).toMatchObject({ event: "created", actor: `user:${admin.userId}`, to_status: "pending" })
      expect((await api.get("/admin/payneteasy/payouts/pnepo_nope", headers()).catch((e: any) => e.response)).status).toBe(404)
    })

    describe("destination saved_card", () => {
      const PAYEE_CARD = { number: "5555555555554444", cvv2: "123", expMonth: "07", expYear: "2031", holder: "Payee Person" }
      const cardService = () => getContainer().resolve(PAYNETEASY_MODULE) as any
      /** Every string anywhere in a value (to prove the card reference is not among them). */
      const strings = (v: unknown): string[] =>
        typeof v === "string" ? [v] : v && typeof v === "object" ? Object.values(v as object).flatMap(strings) : []

      /** A customer's card saved through the hosted zero-amount verification (saved by its callback). */
      async function customerCard() {
        const customer = await registerCustomer(api, eur, "payee", { address_1: "1 Payee St", city: "Riga", postal_code: "1010", country_code: "de", phone: "+37120000002" })
        const started = await api.post("/store/payneteasy/cards", {}, { headers: customer.headers })
        await payHostedPage(started.data.redirect_url, PAYEE_CARD)
        const card = await waitFor("the verified card", async () =>
          (await api.get(`/admin/payneteasy/customers/${customer.id}/cards`, headers())).data.cards[0])
        const [row] = await cardService().listPaynetEasySavedCards({ id: card.id })
        expect(row.card_ref_id).toBeTruthy()
        return { customer, card, cardRefId: row.card_ref_id as string }
      }

      it.each(["single", "two_step"])("%s payout to a saved card: the card row's reference is sent; masked summary; the reference is never stored or returned", async (method) => {
        const { card, cardRefId } = await customerCard()
        const res = await create({ method, amount: "6.50", currency_code: "EUR", destination: { type: "saved_card", card_id: card.id }, recipient: "Payee Person" })
        expect(res.status).toBe(201)
        let p = res.data.payout
        expect(p.destination).toEqual({ type: "saved_card", summary: `saved card ${card.brand} 555555******4444 (${card.id})` })
        if (method === "two_step") {
          p = p.status === "checked" ? p : await waitStatus(p.id, ["checked"])
          expect((await confirm(p.id)).status).toBe(200)
        }
        const done = await waitCallback(p.id, "approved")
        const [order] = gatewayOrders(p.id)
        expect(order).toMatchObject({ operation: method === "single" ? "PAYOUT" : "PAYOUT_V4_CHECK", destination: { kind: "card-ref", summary: `card-ref ${cardRefId}` } })
        expect(gatewayOrders(p.id)).toHaveLength(1)
        expect(strings(res.data)).not.toContain(cardRefId)
        expect(strings(done)).not.toContain(cardRefId)
        const pg = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
        const stored = await pg.raw(`select row_to_json(t) as j from payneteasy_payout t where id = ? union all select row_to_json(h) from payneteasy_payout_history h where payout_id = ?`, [p.id, p.id])
        expect(stored.rows.length).toBeGreaterThanOrEqual(3)
        expect(strings(stored.rows.map((r: any) => r.j)).join("\n")).toContain("555555******4444") // positive control
        expect(strings(stored.rows.map((r: any) => r.j))).not.toContain(cardRefId)
        expect(JSON.stringify(stored.rows)).not.toMatch(/card[-_]ref/)
      })

      it("a deleted saved card is refused with 400 naming destination.card_id; nothing sent, nothing stored", async () => {
        const { customer, card } = await customerCard()
        expect((await api.delete(`/admin/payneteasy/customers/${customer.id}/cards/${card.id}`, headers())).status).toBe(200)
        const before = requests()
        const res = await create({ method: "single", amount: "2.00", currency_code: "EUR", destination: { type: "saved_card", card_id: card.id } })
        expect(res.status).toBe(400)
        expect(res.data.field).toBe("destination.card_id")
        expect(res.data.message).toMatch(/not found/)
        expect(requests()).toEqual(before)
        expect((await api.get("/admin/payneteasy/payouts", headers())).data.count).toBe(0)
      })
    })

    it("the detail's status always agrees with its newest history row, even while changes commit (one snapshot)", async () => {
      const res = await create({ method: "single", amount: "1.25", currency_code: "EUR", destination: DESTINATIONS.wallet })
      const p = await waitStatus(res.data.payout.id, ["approved"])
      const svc = getContainer().resolve(PAYNETEASY_MODULE) as any
      // 60 state changes written as the plugin writes them (row + history in one transaction), racing 4 pollers.
      const statuses = ["processing", "approved"]
      let writing = true
      const writer = (async () => {
        for (let i = 0; i < 60; i++) {
          const to = statuses[i % 2]
          await svc.changePayout({ id: p.id, status: to }, {
            payout_id: p.id, at: new Date(), actor: "test", event: `change ${i}`, from_status: statuses[(i + 1) % 2], to_status: to, gateway: null, note: null,
          })
        }
        writing = false
      })()
      const disagreements: string[] = []
      let reads = 0
      await Promise.all(Array.from({ length: 4 }, async () => {
        while (writing) {
          const d = await detail(p.id)
          reads++
          const last = d.history[d.history.length - 1]
          if (last.to_status !== d.status) disagreements.push(`status ${d.status}, newest history ${last.event} → ${last.to_status}`)
        }
      }))
      await writer
      expect(reads).toBeGreaterThan(20)
      expect(disagreements).toEqual([])
    })

    it("the payout history is append-only in the database: UPDATE and DELETE fail (service and raw SQL), INSERT works", async () => {
      const res = await create({ method: "single", amount: "1.50", currency_code: "EUR", destination: DESTINATIONS.wallet })
      const p = await waitStatus(res.data.payout.id, ["approved"])
      const svc = getContainer().resolve(PAYNETEASY_MODULE) as any
      const pg = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
      const [first] = await svc.listPaynetEasyPayoutHistories({ payout_id: p.id }, { order: { at: "ASC" }, take: 1 })
      await expect(svc.updatePaynetEasyPayoutHistories({ id: first.id, note: "rewritten" })).rejects.toThrow(/append-only/)
      await expect(svc.deletePaynetEasyPayoutHistories([first.id])).rejects.toThrow(/append-only/)
      await expect(pg.raw(`update payneteasy_payout_history set to_status = 'declined' where payout_id = ?`, [p.id])).rejects.toThrow(/append-only: UPDATE refused/)
      await expect(pg.raw(`delete from payneteasy_payout_history where payout_id = ?`, [p.id])).rejects.toThrow(/append-only: DELETE refused/)
      const count = async () => Number((await pg.raw(`select count(*)::int as n from payneteasy_payout_history where payout_id = ?`, [p.id])).rows[0].n)
      const n = await count()
      await svc.createPaynetEasyPayoutHistories({ payout_id: p.id, at: new Date(), actor: "system", event: "note", from_status: "approved", to_status: "approved", gateway: null, note: "appended" })
      expect(await count()).toBe(n + 1)
      const after = await detail(p.id)
      expect(after.history.find((h: any) => h.id === first.id)).toMatchObject({ event: "created", to_status: "pending" })
      expect(after.history.map((h: any) => h.note)).toContain("appended")
    })

    it("no full card or account number in any table or log line (the scans find the masked forms)", async () => {
      const card = await create({ method: "two_step", amount: "11.00", currency_code: "EUR", destination: DESTINATIONS.card })
      const bank = await create({ method: "single", amount: "12.00", currency_code: "EUR", destination: DESTINATIONS.bank })
      await waitStatus(bank.data.payout.id, ["approved"])
      const pg = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
      const tables = await pg.raw(`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)
      const containing = async (needle: string) => {
        const hits: string[] = []
        for (const { table_name } of tables.rows) {
          const r = await pg.raw(`select count(*)::int as n from "${table_name}" as t where t::text like ?`, [`%${needle}%`])
          if (r.rows[0].n > 0) hits.push(table_name)
        }
        return hits
      }
      // Positive controls: the scan finds what is stored (the masked summaries, the payout id in its history).
      expect(await containing("444455******1111")).toEqual(expect.arrayContaining(["payneteasy_payout"]))
      expect(await containing("****5001")).toEqual(expect.arrayContaining(["payneteasy_payout"]))
      expect(await containing(card.data.payout.id)).toEqual(expect.arrayContaining(["payneteasy_payout", "payneteasy_payout_history"]))
      expect(await containing(CARD)).toEqual([])
      expect(await containing(ACCOUNT)).toEqual([])
      const probe = `payneteasy payout log probe ${Date.now()}`
      ;(getContainer().resolve(ContainerRegistrationKeys.LOGGER) as { warn(m: string): void }).warn(probe)
      const all = logged.join("")
      expect(all).toContain(probe)
      expect(all).not.toContain(CARD)
      expect(all).not.toContain(ACCOUNT)
    })
  },
})

/**
 * The payout decisions that write a record, each run against a stand-in payout store (no database): which STATUS
 * answer is adopted and with which reason (gateway-calls.ts adoptStatus), which payouts reconciliation asks about
 * (reconcile-payouts.ts), the saved card a payout may go to (saved-card-destination.ts), and the admin view.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { GATEWAY_STATUSES } from "../../../gateway/statuses"
import { PAYNETEASY_MODULE } from "../../../modules/payneteasy"
import { adoptStatus } from "../gateway-calls"
import { duePayouts, refreshOpenPayout } from "../reconcile-payouts"
import { payoutCard, payoutCardFor, savedCardSummary } from "../saved-card-destination"
import { payoutView, type PayoutRow } from "../payout-state"
import type { SavedCardRow } from "../../saved-cards/records"

type Call = { update: Record<string, unknown> | null; history: Record<string, unknown> }

/** A container whose payout module records each change and answers lists from `rows`. */
function store(rows: { payouts?: PayoutRow[]; cards?: Partial<SavedCardRow>[] } = {}) {
  const changes: Call[] = []
  const lists: Array<{ filter: Record<string, unknown>; config?: Record<string, unknown> }> = []
  const svc = {
    changePayout: async (update: Record<string, unknown> | null, history: Record<string, unknown>) => {
      changes.push({ update, history })
      return update ? { ...(rows.payouts?.find((p) => p.id === update.id) ?? {}), ...update } : undefined
    },
    listPaynetEasyPayouts: async (filter: Record<string, unknown>, config?: Record<string, unknown>) => {
      lists.push({ filter, config })
      return (rows.payouts ?? []).filter((p) => !filter.id || p.id === filter.id)
    },
    listPaynetEasySavedCards: async (filter: Record<string, unknown>) => {
      lists.push({ filter })
      return (rows.cards ?? []).filter((c) => c.id === filter.id && c.state === filter.state)
    },
  }
  // the logger records the lines a payout writes (its money movement when it turns paid)
  const lines: string[] = []
  const logger = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) }
  const container = { resolve: (key: string) => (key === PAYNETEASY_MODULE ? svc : key === "logger" ? logger : undefined) } as unknown as MedusaContainer
  return { container, changes, lists, lines }
}

const payout = (over: Partial<PayoutRow> = {}): PayoutRow => ({
  id: "pnepo_1", provider_id: "pp_payneteasy", method: "single", status: "processing", amount: "10.00", currency_code: "EUR",
  destination_type: "card", destination_summary: "444455******1111", recipient: null, purpose: null, client_orderid: "pnepo_1",
  gateway_order_id: "77", check_serial: null, pay_serial: null, form_url: null, error_code: null, error_message: null,
  idempotency_key: "k", request_hash: "h", confirm_idempotency_key: null, created_by: null, confirmed_by: null, confirmed_at: null,
  finished_at: null, next_check_at: null, checks: 0, eligibility: null, saved_card_id: null,
  created_at: new Date("2026-01-01T00:00:00Z"), updated_at: new Date("2026-01-01T00:00:00Z"), ...over,
})

describe("adoptStatus over every gateway status", () => {
  const FINAL = ["approved", "declined", "error", "filtered"]
  it.each(GATEWAY_STATUSES.map((s) => [s]))("%s", async (status) => {
    const before = payout()
    const s = store({ payouts: [before] })
    const reply = { status, "transaction-type": "payout", orderid: "77", "serial-number": "S-9", "error-code": "E1", "error-message": "why" }
    const after = await adoptStatus(s.container, before, reply as never, "test", "STATUS")
    const declined = FINAL.includes(status) && status !== "approved"
    expect(after.status).toBe(FINAL.includes(status) ? status : "processing")
    expect(s.changes).toHaveLength(1)
    const update = s.changes[0].update!
    expect(update.pay_serial).toBe("S-9")
    // the gateway's reason is kept only when the gateway said no
    if (declined) expect(update).toMatchObject({ error_code: "E1", error_message: "why" })
    else expect(update).not.toHaveProperty("error_code")
    // a final status closes the payout and stops polling
    if (FINAL.includes(status)) expect(update).toMatchObject({ finished_at: expect.any(Date), next_check_at: null })
    else expect(update).not.toHaveProperty("finished_at")
    // only an approval moves money, and says so once with the payout's ids
    expect(s.lines).toEqual(status === "approved" ? ["PaynetEasy: payout paid 10.00 EUR (gateway approved) [payout=pnepo_1 gateway_order=77 client_order=pnepo_1]"] : [])
  })

  it("a declined two-step check keeps the reason too (check_declined is a refusal)", async () => {
    const before = payout({ method: "two_step", status: "checking" })
    const s = store({ payouts: [before] })
    const reply = { status: "declined", "transaction-type": "payout-check", orderid: "77", "error-code": "E2", "error-message": "no" }
    const after = await adoptStatus(s.container, before, reply as never, "test", "STATUS")
    expect(after.status).toBe("check_declined")
    expect(s.changes[0].update).toMatchObject({ status: "check_declined", error_code: "E2", error_message: "no" })
  })

  it("writes nothing when the answer changes nothing and no callback is to be kept", async () => {
    const same = payout({ pay_serial: "S-9" })
    const s = store({ payouts: [same] })
    const reply = { status: "processing", "transaction-type": "payout", orderid: "77", "serial-number": "S-9" }
    expect(await adoptStatus(s.container, same, reply as never, "test", "STATUS")).toBe(same)
    expect(s.changes).toHaveLength(0)
    await adoptStatus(s.container, same, reply as never, "gateway:callback", "callback", { status: "processing" })
    expect(s.changes).toHaveLength(1)
    expect(s.changes[0].update).not.toHaveProperty("status")
    expect(s.changes[0].history).toMatchObject({ from_status: "processing", to_status: "processing", actor: "gateway:callback" })
  })
})

describe("reconciliation of payouts", () => {
  it("asks about the open statuses only, the most overdue first", async () => {
    const s = store()
    const now = new Date("2026-01-01T01:00:00Z")
    await duePayouts(s.container, now)
    const { filter, config } = s.lists[0]
    expect([...(filter.status as string[])].sort()).toEqual(["checking", "eligibility_checking", "form_issued", "pending", "processing"])
    expect(filter.next_check_at).toEqual({ $lte: now })
    expect(config).toMatchObject({ order: { next_check_at: "ASC" } })
  })

  it.each(["approved", "declined", "error", "filtered", "check_declined", "failed", "ineligible"] as const)("a payout %s by now is left alone", async (status) => {
    const s = store({ payouts: [payout({ status })] })
    expect(await refreshOpenPayout(s.container, "pnepo_1")).toEqual({ payout: expect.objectContaining({ status }), changed: false })
    expect(s.changes).toHaveLength(0)
  })
})

describe("a saved card as the destination", () => {
  const card = { id: "pnecard_01ABCDEFGHJKMNPQRS", provider_id: "pp_payneteasy", state: "active" as const, card_ref_id: "REF-1", brand: "VISA", bin: "444455", last4: "1111" }

  it("is the active card with a reference, of the payout's own registration", async () => {
    const s = store({ cards: [card] })
    expect(await payoutCardFor(s.container, card.id, "pp_payneteasy")).toMatchObject({ card_ref_id: "REF-1" })
    await expect(payoutCardFor(s.container, card.id, "pp_payneteasy_other")).rejects.toThrow(/belongs to provider pp_payneteasy, but payouts are sent by pp_payneteasy_other/)
  })

  it("is refused in words when unknown, not verified (no reference) or not a card id at all (never looked up)", async () => {
    await expect(payoutCard(store({ cards: [] }).container, card.id)).rejects.toThrow(/destination.card_id: saved card .* was not found/)
    await expect(payoutCard(store({ cards: [{ ...card, card_ref_id: null }] }).container, card.id)).rejects.toThrow(/was not found/)
    const s = store({ cards: [card] })
    await expect(payoutCard(s.container, "not-a-card")).rejects.toThrow(/was not found/)
    expect(s.lists).toHaveLength(0)
  })

  it("is kept on the payout as its masked summary", () => {
    expect(savedCardSummary(card as SavedCardRow)).toBe("saved card VISA 444455******1111 (pnecard_01ABCDEFGHJKMNPQRS)")
    expect(savedCardSummary({ id: "pnecard_X", brand: null, bin: null, last4: null } as unknown as SavedCardRow)).toBe("saved card card " + "*".repeat(16) + " (pnecard_X)")
  })
})

describe("payoutView", () => {
  it("offers confirm only for a checked two-step payout not confirmed yet", () => {
    expect(payoutView(payout({ method: "two_step", status: "checked" })).can_confirm).toBe(true)
    expect(payoutView(payout({ method: "two_step", status: "checked", confirm_idempotency_key: "c" })).can_confirm).toBe(false)
    expect(payoutView(payout({ method: "two_step", status: "checking" })).can_confirm).toBe(false)
    expect(payoutView(payout({ method: "single", status: "checked" })).can_confirm).toBe(false)
  })
  it("shows no keys and a destination only when there is one", () => {
    const v = payoutView(payout())
    expect(v).not.toHaveProperty("idempotency_key")
    expect(v).not.toHaveProperty("request_hash")
    expect(v.destination).toEqual({ type: "card", summary: "444455******1111" })
    expect(payoutView(payout({ method: "form", destination_type: null })).destination).toBeNull()
  })
})

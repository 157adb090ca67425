/**
 * The payout rules that need no app: the request schema (the one the admin form shares), masked summaries and
 * gateway fields per destination, the one-time destination vault, what a gateway answer means for a payout's status,
 * and the `payouts` provider option.
 */
import fc from "fast-check"
import { createPayoutSchema, firstIssue, luhnOk } from "../payout-request"
import { parseOptions } from "../../connection/options"
import { depositDestination, destinationFields, destinationSummary, takeDestination } from "../destination"
import { statusFromGateway, type PayoutRow } from "../payout-state"
import { GATEWAY_STATUSES } from "../../../gateway/statuses"

const CARD = "4444555566661111"
const valid = { method: "single", amount: "10.00", currency_code: "EUR", destination: { type: "card", card_number: CARD } }
const issue = (body: unknown) => {
  const r = createPayoutSchema.safeParse(body)
  return r.success ? undefined : firstIssue(r.error)
}

describe("request schema", () => {
  it("accepts each destination kind and the form without one; normalises currency and card spacing", () => {
    expect(createPayoutSchema.parse({ ...valid, currency_code: "eur", destination: { type: "card", card_number: "4444 5555 6666 1111" } }))
      .toMatchObject({ currency_code: "EUR", destination: { card_number: CARD } })
    for (const destination of [
      { type: "bank", account_number: "LV80BANK0000435195001", bank_name: "B", bank_branch: "R" },
      { type: "wallet", wallet_id: "w-1" },
      { type: "phone", phone: "+371 2000 0001" },
      { type: "saved_card", card_id: "pnecard_01ABCDEFGHJKMNPQRS" },
    ]) expect(createPayoutSchema.safeParse({ ...valid, destination }).success).toBe(true)
    expect(createPayoutSchema.safeParse({ method: "form", amount: "1", currency_code: "JPY" }).success).toBe(true)
  })

  it.each([
    [{ ...valid, destination: { type: "card", card_number: "4444555566661112" } }, "destination.card_number"],
    [{ ...valid, amount: "1.001" }, "amount"],
    [{ ...valid, amount: "1.0", currency_code: "JPY" }, "amount"],
    [{ ...valid, amount: "0" }, "amount"],
    [{ ...valid, amount: "-1" }, "amount"],
    [{ ...valid, amount: "1e3" }, "amount"],
    [{ ...valid, currency_code: "ZZZ" }, "currency_code"],
    [{ method: "two_step", amount: "1.00", currency_code: "EUR" }, "destination"],
    [{ ...valid, method: "form" }, "destination"],
    [{ ...valid, destination: { type: "wallet", wallet_id: "w", phone: "+37120000001" } }, "destination.phone"],
    [{ ...valid, recipient: "x".repeat(129) }, "recipient"],
    [{ ...valid, extra: 1 }, "extra"],
    [{ ...valid, destination: { type: "saved_card", card_id: "card_123" } }, "destination.card_id"],
    [{ ...valid, destination: { type: "saved_card", card_id: "pnecard_01ABCDEFGHJK", card_number: CARD } }, "destination.card_number"],
  ])("refuses %j naming %s", (body, field) => {
    expect(issue(body)?.field).toBe(field)
  })

  it("Luhn: every valid number passes, every single-digit change fails", () => {
    expect(luhnOk(CARD)).toBe(true)
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 9 }), (pos, delta) => {
        const digits = CARD.split("")
        digits[pos] = String((Number(digits[pos]) + delta) % 10)
        return !luhnOk(digits.join(""))
      })
    )
  })
})

describe("destinations", () => {
  it("summaries never hold the full number", () => {
    expect(destinationSummary({ type: "card", card_number: CARD })).toBe("444455******1111")
    expect(destinationSummary({ type: "bank", account_number: "LV80BANK0000435195001", bank_name: "B", bank_branch: "R" })).toBe("B / R / ****5001")
    expect(destinationSummary({ type: "phone", phone: "+37120000001" })).toBe("phone ****0001")
  })

  it("v4 check names the card destination-card-no, v2 credit_card_number", () => {
    expect(destinationFields({ type: "card", card_number: CARD }, "two_step")).toEqual({ "destination-card-no": CARD })
    expect(destinationFields({ type: "card", card_number: CARD }, "single", "Jane")).toEqual({ credit_card_number: CARD, card_printed_name: "Jane" })
    expect(destinationFields({ type: "card_ref", card_ref_id: "7001" }, "two_step", "Jane")).toEqual({ "destination-card-ref-id": "7001", card_printed_name: "Jane" })
    expect(destinationFields({ type: "card_ref", card_ref_id: "7001" }, "single")).toEqual({ "destination-card-ref-id": "7001" })
  })

  it("the vault hands a destination out once", () => {
    const token = depositDestination({ type: "wallet", wallet_id: "w" })
    expect(takeDestination(token)).toEqual({ type: "wallet", wallet_id: "w" })
    expect(takeDestination(token)).toBeUndefined()
  })
})

describe("statusFromGateway", () => {
  const p = (over: Partial<PayoutRow>) => ({ method: "two_step", status: "checking", confirmed_at: null, ...over }) as PayoutRow
  it("maps the check and the pay of a two-step payout separately", () => {
    expect(statusFromGateway(p({}), { status: "approved", "transaction-type": "payout-check" })).toBe("checked")
    expect(statusFromGateway(p({}), { status: "declined", "transaction-type": "payout-check" })).toBe("check_declined")
    expect(statusFromGateway(p({}), { status: "processing", "transaction-type": "payout-check" })).toBe("checking")
    // confirmed, STATUS still shows only the check: the pay has not arrived; never back to "checked"
    expect(statusFromGateway(p({ status: "processing", confirmed_at: new Date() }), { status: "approved", "transaction-type": "payout-check" })).toBe("processing")
    expect(statusFromGateway(p({ status: "processing", confirmed_at: new Date() }), { status: "approved", "transaction-type": "payout" })).toBe("approved")
  })
  it("a form waiting for the recipient stays form_issued until final", () => {
    expect(statusFromGateway(p({ method: "form", status: "form_issued" }), { status: "processing", "transaction-type": "payout" })).toBe("form_issued")
    expect(statusFromGateway(p({ method: "form", status: "form_issued" }), { status: "declined", "transaction-type": "payout" })).toBe("declined")
  })
})

describe("statusFromGateway over every gateway status (PAYOUT_STEP_OUTCOME)", () => {
  const p = (over: Partial<PayoutRow>) => ({ method: "single", status: "processing", confirmed_at: null, ...over }) as PayoutRow
  const FINAL = new Set<string>(["approved", "declined", "error", "filtered"])
  it.each(GATEWAY_STATUSES.map((s) => [s]))("%s", (status) => {
    const final = FINAL.has(status)
    // the pay step (single, form, a confirmed two-step's payout): a final status is the payout's, else it goes on
    expect(statusFromGateway(p({}), { status, "transaction-type": "payout" })).toBe(final ? status : "processing")
    expect(statusFromGateway(p({ method: "form", status: "form_issued" }), { status, "transaction-type": "payout" })).toBe(final ? status : "form_issued")
    // a two-step payout's check step
    const check = statusFromGateway(p({ method: "two_step", status: "checking" }), { status, "transaction-type": "payout-check" })
    expect(check).toBe(status === "approved" ? "checked" : final ? "check_declined" : "checking")
    // the same status in other spellings means the same
    expect(statusFromGateway(p({}), { status: ` ${status.toUpperCase()} `, "transaction-type": "payout" })).toBe(final ? status : "processing")
  })
})

describe("payouts provider option", () => {
  const base = { baseUrl: "http://x/paynet", endpointId: "1", login: "l", controlKey: "k", backendUrl: "http://shop" }
  it("needs a limit for every allowed currency, with valid decimals", () => {
    expect(parseOptions({ ...base, payouts: { currencies: ["eur"], maxAmount: { EUR: "100.00" } } }).payouts).toEqual({ currencies: ["EUR"], maxAmount: { EUR: "100.00" } })
    expect(() => parseOptions({ ...base, payouts: { currencies: ["EUR"], maxAmount: {} } })).toThrow(/payouts.maxAmount.EUR is required/)
    expect(() => parseOptions({ ...base, payouts: { currencies: ["JPY"], maxAmount: { JPY: "1.5" } } })).toThrow(/at most 0 decimals/)
    expect(() => parseOptions({ ...base, payouts: { currencies: ["ABC"], maxAmount: {} } })).toThrow(/not an ISO 4217/)
    expect(() => parseOptions({ ...base, payouts: { currencies: ["EUR"], maxAmount: { EUR: "1", USD: "1" } } })).toThrow(/USD is not in payouts.currencies/)
  })
})

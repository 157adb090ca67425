import { authorizedHeldMinor, rebillBalance, type RebillBalanceInput } from "../rebill-balance"

const base: RebillBalanceInput = {
  order_id: "order_1", customer_id: "cus_1", currency_code: "eur", totalMinor: 2084n, paidMinor: 1042n, outstandingMinor: 1042n,
  authorizedMinor: 0n, pending: null, pendingMinor: 0n,
}
const pending = { id: "pnerb_1", amount: "5.00", currency_code: "eur", card_id: "pnecard_1", created_at: null }

describe("rebillBalance: what an admin rebill may charge", () => {
  it("charges what is outstanding when nothing is authorized or pending", () => {
    expect(rebillBalance(base)).toMatchObject({ total: "20.84", paid: "10.42", outstanding: "10.42", authorized: "0.00", chargeable: "10.42", refusal: null })
  })

  it("leaves out what an authorization holds; covered entirely, it says to capture instead", () => {
    expect(rebillBalance({ ...base, authorizedMinor: 442n })).toMatchObject({ chargeable: "6.00", refusal: null })
    const covered = rebillBalance({ ...base, authorizedMinor: 1042n })
    expect(covered).toMatchObject({ chargeable: "0.00", refusal: { type: "capture_authorized" } })
    expect(covered.refusal!.message).toMatch(/capture the authorized payment instead/)
  })

  it("counts a pending rebill as charged and refuses any other while it is pending, naming it", () => {
    const b = rebillBalance({ ...base, pending, pendingMinor: 500n })
    expect(b).toMatchObject({ chargeable: "5.42", pending_rebill: pending, refusal: { type: "rebill_pending" } })
    expect(b.refusal!.message).toContain("pnerb_1")
    expect(b.refusal!.message).toContain("5.00 EUR")
    expect(b.refusal!.message).toContain("pnecard_1")
  })

  it("a paid order (or one paid more than it owes) has nothing to charge", () => {
    expect(rebillBalance({ ...base, paidMinor: 2084n, outstandingMinor: 0n })).toMatchObject({ chargeable: "0.00", refusal: { type: "no_balance" } })
    expect(rebillBalance({ ...base, paidMinor: 2184n, outstandingMinor: -100n })).toMatchObject({ outstanding: "-1.00", chargeable: "0.00", refusal: { type: "no_balance" } })
  })

  it("writes amounts with the currency's ISO 4217 decimals", () => {
    expect(rebillBalance({ ...base, currency_code: "jpy", totalMinor: 3000n, paidMinor: 1500n, outstandingMinor: 1500n })).toMatchObject({ chargeable: "1500", total: "3000" })
    expect(rebillBalance({ ...base, currency_code: "kwd", totalMinor: 1234n, paidMinor: 0n, outstandingMinor: 1234n })).toMatchObject({ chargeable: "1.234" })
  })
})

describe("authorizedHeldMinor: what the order's payments hold and have not captured", () => {
  it("counts a live payment's uncaptured rest, never a canceled payment, never below zero", () => {
    const payments = [
      { raw_amount: { value: "10.42", precision: 20 }, captures: [{ raw_amount: { value: "4", precision: 20 } }] }, // 6.42 held
      { amount: "5", canceled_at: new Date(), captures: [] }, // released
      { amount: "3", captures: [{ amount: "3" }] }, // captured in full
      { amount: "2", captures: [{ amount: "2.5" }] }, // over-captured as Medusa shows it: adds nothing
      null,
    ]
    expect(authorizedHeldMinor(payments, "eur")).toBe(642n)
    expect(authorizedHeldMinor([], "eur")).toBe(0n)
  })
})

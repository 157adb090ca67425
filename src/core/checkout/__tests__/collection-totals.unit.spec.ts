import { collectionTotals } from "../collection-totals"

describe("collectionTotals: Medusa's collection rule, in minor units", () => {
  const base = { amount: "10.42", currency: "eur", sessions: [{ status: "authorized", amount: "10.42" }], captures: [] as string[], refunds: [] as string[] }

  it.each([
    ["no session", "not_paid", { sessions: [] }],
    ["a pending session", "awaiting", { sessions: [{ status: "pending", amount: "10.42" }] }],
    ["authorized in full", "authorized", {}],
    ["authorized in part", "partially_authorized", { sessions: [{ status: "authorized", amount: "10.41" }] }],
    ["captured in part (a declined capture taken back)", "authorized", { captures: ["5"] }],
    ["captured in full", "completed", { captures: ["5", "5.42"] }],
    ["captured in full, then refunded", "completed", { captures: ["10.42"], refunds: ["3"] }],
  ])("%s → %s", (_name, status, change) => {
    expect(collectionTotals({ ...base, ...change }).status).toBe(status)
  })

  it("writes decimal strings at the currency's exponent, summed exactly (no floats)", () => {
    const t = collectionTotals({ ...base, captures: ["0.1", "0.2", { value: "5.12", precision: 20 } as never], refunds: [0.1, 0.2] })
    expect(t).toEqual({ status: "authorized", authorized_amount: "10.42", captured_amount: "5.42", refunded_amount: "0.30", completed: false })
    expect(collectionTotals({ amount: "1000", currency: "jpy", sessions: [{ status: "authorized", amount: 1000 }], captures: ["1000"], refunds: [] }))
      .toEqual({ status: "completed", authorized_amount: "1000", captured_amount: "1000", refunded_amount: "0", completed: true })
  })
})

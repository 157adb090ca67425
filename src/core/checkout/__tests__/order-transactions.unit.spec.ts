import { removeOrderTransactions, transactionRepairs, type MoneyRow } from "../order-transactions"

describe("transactionRepairs: capture / refund transactions agree with the Capture / Refund they name", () => {
  const t = (id: string, reference: string | null, reference_id: string | null, amount?: string) =>
    ({ id, order_id: "order_1", version: 1, reference, reference_id, amount, currency_code: "eur" })
  const rows = new Map<string, MoneyRow>([
    ["capt_a", { id: "capt_a", kind: "capture", amount: "4" }],
    ["capt_b", { id: "capt_b", kind: "capture", amount: "6.42" }],
    ["ref_a", { id: "ref_a", kind: "refund", amount: { value: "1", precision: 20 } as never }],
  ])
  it("removes what names a row that is gone, and leaves what agrees and what is not a capture or refund", () => {
    const r = transactionRepairs([t("tx1", "capture", "capt_a", "4"), t("tx2", "capture", "capt_gone", "0.1"), t("tx3", "refund", "ref_a", "-1"), t("tx4", "credit_line", "x", "5"), t("tx5", null, null)], rows)
    expect({ remove: r.remove.map((x) => x.id), add: r.add }).toEqual({ remove: ["tx2"], add: [] })
  })
  it("books again with its row's amount what Medusa booked with another request's (two captures at once: 4 + 4 for 4 and 6.42)", () => {
    const r = transactionRepairs([t("tx1", "capture", "capt_a", "4"), t("tx2", "capture", "capt_b", "4.00")], rows)
    expect(r.remove.map((x) => x.id)).toEqual(["tx2"])
    expect(r.add).toEqual([{ order_id: "order_1", amount: "6.42", currency_code: "eur", reference: "capture", reference_id: "capt_b" }])
  })
  it("a refund's transaction is negative: a positive one, or another amount, is booked again as minus its row's amount", () => {
    expect(transactionRepairs([t("tx1", "refund", "ref_a", "-2")], rows).add).toEqual([{ order_id: "order_1", amount: "-1", currency_code: "eur", reference: "refund", reference_id: "ref_a" }])
    expect(transactionRepairs([t("tx1", "refund", "ref_a", "1")], rows).add.map((a) => a.amount)).toEqual(["-1"])
  })
  it("a row booked twice keeps one transaction; a transaction naming a row of the other kind is removed", () => {
    const r = transactionRepairs([t("tx1", "capture", "capt_a", "4"), t("tx2", "capture", "capt_a", "4"), t("tx3", "refund", "capt_b", "-6.42")], rows)
    expect({ remove: r.remove.map((x) => x.id), add: r.add }).toEqual({ remove: ["tx2", "tx3"], add: [] })
  })
})

describe("removeOrderTransactions: the current version's summary loses them", () => {
  it("moves a transaction of an older version to the order's current one before deleting it", async () => {
    const calls: string[] = []
    const orders = {
      listOrders: async () => [{ id: "order_1", version: 3 }],
      updateOrderTransactions: async (d: unknown) => void calls.push(`update ${JSON.stringify(d)}`),
      deleteOrderTransactions: async (ids: string[]) => void calls.push(`delete ${ids.join(",")}`),
    }
    await removeOrderTransactions(orders as never, [
      { id: "tx1", order_id: "order_1", version: 1 },
      { id: "tx2", order_id: "order_1", version: 3 },
    ])
    expect(calls).toEqual(['update [{"id":"tx1","version":3}]', "delete tx1,tx2"])
  })
})

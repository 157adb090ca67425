import { orphanedTransactions, removeOrderTransactions } from "../order-transactions"

describe("orphanedTransactions: capture / refund transactions whose row Medusa no longer has", () => {
  const t = (id: string, reference: string | null, reference_id: string | null) => ({ id, order_id: "order_1", version: 1, reference, reference_id })
  it("names only capture and refund transactions whose Capture / Refund is gone", () => {
    const list = [t("tx1", "capture", "capt_kept"), t("tx2", "capture", "capt_deleted"), t("tx3", "refund", "ref_gone"), t("tx4", "refund", "ref_kept"), t("tx5", "credit_line", "x"), t("tx6", null, null)]
    expect(orphanedTransactions(list, new Set(["capt_kept", "ref_kept"])).map((x) => x.id)).toEqual(["tx2", "tx3"])
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

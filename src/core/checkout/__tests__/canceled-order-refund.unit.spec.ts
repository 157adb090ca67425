import { canceledOrderRefundRefusal } from "../canceled-order-refund"

describe("canceledOrderRefundRefusal", () => {
  it("refuses a canceled order's refund in words, naming the order", () => {
    expect(canceledOrderRefundRefusal({ id: "order_1", status: "canceled" })).toMatch(/^Order order_1 is canceled: .*nothing was returned/)
  })
  it.each(["pending", "completed", "draft", "archived", "requires_action", null, undefined])("lets an order %s through", (status) => {
    expect(canceledOrderRefundRefusal({ id: "order_1", status })).toBeUndefined()
  })
  it("lets a payment of no order through (Medusa answers for it)", () => {
    expect(canceledOrderRefundRefusal(undefined)).toBeUndefined()
  })
})

describe("canceledOrderRefundRefusal for a capture", () => {
  it("refuses a capture on a canceled order's payment, and lets any other order through", () => {
    expect(canceledOrderRefundRefusal({ id: "order_1", status: "canceled" }, "capture")).toMatch(/^Order order_1 is canceled: .*nothing was captured/)
    expect(canceledOrderRefundRefusal({ id: "order_1", status: "pending" }, "capture")).toBeUndefined()
  })
})

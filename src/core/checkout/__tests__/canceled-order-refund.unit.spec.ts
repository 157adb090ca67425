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

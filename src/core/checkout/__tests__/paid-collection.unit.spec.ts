/** When a collection's sessions must stay as they are (paid-collection.ts): every Medusa status, and Payments. */
import { PaymentCollectionStatus } from "@medusajs/framework/utils"
import { paidCollectionRefusal, sessionHoldsOrderMoney } from "../paid-collection"

describe("paid collections", () => {
  it.each([
    [PaymentCollectionStatus.NOT_PAID, false],
    [PaymentCollectionStatus.AWAITING, false],
    [PaymentCollectionStatus.FAILED, false],
    [PaymentCollectionStatus.AUTHORIZED, true],
    [PaymentCollectionStatus.PARTIALLY_AUTHORIZED, true],
    [PaymentCollectionStatus.PARTIALLY_CAPTURED, true],
    [PaymentCollectionStatus.COMPLETED, true],
    [PaymentCollectionStatus.CANCELED, true],
  ])("a collection %s refuses a new session: %s", (status, refused) => {
    const words = paidCollectionRefusal({ status, payments: [] })
    expect(!!words).toBe(refused)
    if (refused && status !== PaymentCollectionStatus.CANCELED) expect(words).toMatch(/already paid\/authorized/)
  })

  it("a live Payment refuses whatever the status says; a canceled one does not", () => {
    expect(paidCollectionRefusal({ status: "awaiting", payments: [{ id: "pay_1" }] })).toMatch(/payment pay_1/)
    expect(paidCollectionRefusal({ status: "awaiting", payments: [{ id: "pay_1", canceled_at: new Date() }] })).toBeUndefined()
  })

  it("a session keeps its money when it backs a Payment or its collection is paid", () => {
    expect(sessionHoldsOrderMoney({ payment: { id: "pay_1" } })).toMatch(/pay_1/)
    expect(sessionHoldsOrderMoney({ payment: null, payment_collection: { status: "completed" } })).toMatch(/completed/)
    expect(sessionHoldsOrderMoney({ payment: null, payment_collection: { status: "awaiting", payments: [] } })).toBeUndefined()
    // canceled: nothing of its own is held (a page paid after the cancel goes back), unless a Payment of it still lives
    expect(sessionHoldsOrderMoney({ payment: null, payment_collection: { status: "canceled", payments: [{ id: "pay_2", canceled_at: "2026-12-04" }] } })).toBeUndefined()
    expect(sessionHoldsOrderMoney({ payment: null, payment_collection: { status: "canceled", payments: [{ id: "pay_3", canceled_at: null }] } })).toMatch(/canceled/)
  })
})

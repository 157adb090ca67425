import { refuseWhileUnshown, unshownRequest } from "../unshown-request"

const sentAt = "2026-12-04T10:00:00.000Z"
const at = (ms: number) => new Date(Date.parse(sentAt) + ms)
const WINDOW = 5 * 60_000
const data = (captures: unknown[], extra: Record<string, unknown> = {}) => ({
  session_id: "payses_1", clientOrderId: "payses_1", orderId: "1000001", flow: "direct", transactionType: "preauth", amount: "10.42", currency: "EUR", captures, ...extra,
})
const unshown = { id: "capt_2", amount: "3.43", currency: "EUR", status: "unknown", pending: true, afterSerial: "s-1", sentAt }

describe("unshownRequest: a maybe-sent request STATUS does not show yet blocks the next one, within its processing window", () => {
  it.each([
    ["sent, reply lost, not shown yet", [unshown], at(1_000), "capt_2"],
    ["answered processing without a serial", [{ ...unshown, status: "processing", afterSerial: undefined }], at(1_000), "capt_2"],
    ["the window has passed: a person's (attention item), not blocking", [unshown], at(WINDOW), undefined],
    ["pending with a serial: STATUS asks for it by serial", [{ ...unshown, serialNumber: "s-2" }], at(1_000), undefined],
    ["settled", [{ ...unshown, pending: false, status: "approved", serialNumber: "s-2" }], at(1_000), undefined],
    ["no sentAt (recorded before the rule): cannot be timed, not blocking", [{ ...unshown, sentAt: undefined }], at(1_000), undefined],
  ])("%s", (_name, captures, now, id) => {
    expect(unshownRequest(data(captures), now, WINDOW)?.id).toBe(id)
  })

  it("a refund or a void not shown yet blocks too", () => {
    expect(unshownRequest(data([], { refunds: [{ ...unshown, id: "ref_1" }] }), at(10), WINDOW)?.kind).toBe("refund")
    expect(unshownRequest(data([], { voidEntry: { ...unshown, id: "void" } }), at(10), WINDOW)?.kind).toBe("void")
  })

  it("refuses in words, naming what waits, and lets through what may go", () => {
    expect(() => refuseWhileUnshown(data([unshown]), at(10), WINDOW, "refund")).toThrow(
      "PaynetEasy refund: an earlier capture of 3.43 EUR may still be processing at the gateway and is not confirmed yet, so nothing was sent."
    )
    expect(() => refuseWhileUnshown(data([unshown]), at(WINDOW + 1), WINDOW, "refund")).not.toThrow()
    expect(() => refuseWhileUnshown(undefined, at(10), WINDOW, "capture")).not.toThrow()
  })
})

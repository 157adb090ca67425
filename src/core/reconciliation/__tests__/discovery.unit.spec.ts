import { isDiscoverable } from "../session-check"

describe("which sessions reconciliation asks about", () => {
  it("any session with a gateway order, and direct sessions with only a client_orderid (lost card reply)", () => {
    expect(isDiscoverable({ flow: "hosted", orderId: "1", clientOrderId: "payses_1" })).toBe(true)
    expect(isDiscoverable({ flow: "direct", clientOrderId: "payses_1", attempt: 1 })).toBe(true)
    expect(isDiscoverable({ flow: "hosted", clientOrderId: "payses_1" })).toBe(false)
    expect(isDiscoverable({ flow: "direct" })).toBe(false)
    expect(isDiscoverable(undefined)).toBe(false)
  })

  it("a saved-card payment (any flow) whose rebill outcome is unknown, by its client_orderid alone", () => {
    expect(isDiscoverable({ flow: "hosted", clientOrderId: "payses_1", gatewayStatus: "unknown", card_id: "pnecard_1" })).toBe(true)
    expect(isDiscoverable({ flow: "hosted", clientOrderId: "payses_1", gatewayStatus: "declined" })).toBe(false)
    expect(isDiscoverable({ flow: "hosted", gatewayStatus: "unknown" })).toBe(false)
  })
})

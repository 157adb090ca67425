import { clientOrderIdFor, parseClientOrderId, sessionIdFromClientOrderId } from "../client-order-id"

describe("client_orderid", () => {
  it("attempt 1 is the session id, later attempts add -a<n>", () => {
    expect(clientOrderIdFor("payses_01ABC")).toBe("payses_01ABC")
    expect(clientOrderIdFor("payses_01ABC", 1)).toBe("payses_01ABC")
    expect(clientOrderIdFor("payses_01ABC", 2)).toBe("payses_01ABC-a2")
    expect(clientOrderIdFor("payses_01ABC", 12)).toBe("payses_01ABC-a12")
  })

  it.each([
    ["payses_01ABC", "payses_01ABC", 1],
    ["payses_01ABC-a2", "payses_01ABC", 2],
    [" payses_01ABC-a7 ", "payses_01ABC", 7],
  ])("%s → session %s attempt %i", (id, session, attempt) => {
    expect(parseClientOrderId(id)).toEqual({ sessionId: session, attempt })
    expect(sessionIdFromClientOrderId(id)).toBe(session)
  })

  it.each([[""], [undefined], ["order-17"], ["payses_01ABC-a1"], ["payses_01ABC-a0"], ["payses_"], ["payses_x y"]])(
    "%j is not ours",
    (id) => {
      expect(sessionIdFromClientOrderId(id as any)).toBeUndefined()
    }
  )

  it("round-trips", () => {
    for (let n = 1; n < 30; n++) {
      expect(parseClientOrderId(clientOrderIdFor("payses_01HZZ", n))).toEqual({ sessionId: "payses_01HZZ", attempt: n })
    }
  })

  it("refuses bad input", () => {
    expect(() => clientOrderIdFor("", 1)).toThrow()
    expect(() => clientOrderIdFor("payses_1", 0)).toThrow()
  })
})

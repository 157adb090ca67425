import { MedusaError } from "@medusajs/framework/utils"
import { parseThreeDS, uploadFields, uploadThreeDS } from "../three-ds"

const session = {
  session_id: "payses_1", clientOrderId: "payses_1", orderId: "777", flow: "direct" as const,
  transactionType: "preauth" as const, amount: "10.42", currency: "EUR",
}

type FakeStatus = string | Record<string, string>

function fakeClient(statuses: FakeStatus[]) {
  const calls: Array<{ op: string; fields: Record<string, unknown> }> = []
  let i = 0
  return {
    calls,
    client: {
      request: async (op: string, fields: Record<string, unknown>) => {
        calls.push({ op, fields })
        if (op === "STATUS") {
          const next = statuses[Math.min(i++, statuses.length - 1)]
          return { type: "status-response", ...(typeof next === "string" ? { status: next } : next) }
        }
        return { type: "async-response", status: "processing" }
      },
    } as any,
  }
}

describe("3-D Secure uploads", () => {
  it("maps each kind to its operation fields (client-order-id + orderid, login added by the client)", () => {
    expect(uploadFields(parseThreeDS({ kind: "method", threeDSCompInd: "Y", browser: { browserColorDepth: 24 } }), session)).toEqual({
      "client-order-id": "payses_1", orderid: "777", threeDSCompInd: "Y", threeDSServerTransID: undefined, browserColorDepth: "24",
    })
    expect(uploadFields(parseThreeDS({ kind: "cres", cRes: "abc" }), session)).toEqual({ "client-order-id": "payses_1", orderid: "777", cRes: "abc" })
    expect(uploadFields(parseThreeDS({ kind: "pares", paRes: "p", MD: "m" }), session)).toEqual({
      "client-order-id": "payses_1", orderid: "777", paRes: "p", MD: "m",
    })
  })

  it("refuses bad input as INVALID_DATA and unknown browser fields", () => {
    expect(() => parseThreeDS({ kind: "method", threeDSCompInd: "X" })).toThrow(MedusaError)
    expect(() => parseThreeDS({ kind: "cres", cRes: "" })).toThrow(/cRes/)
    expect(() => parseThreeDS({ kind: "method", threeDSCompInd: "Y", browser: { cardNumber: "1" } })).toThrow(MedusaError)
    expect(() => parseThreeDS({ kind: "other" })).toThrow(MedusaError)
  })

  it("sends the CRes, waits for a decisive STATUS, and returns refreshed data without the upload", async () => {
    const { client, calls } = fakeClient(["processing", "approved"])
    const refreshed = await uploadThreeDS(client, { ...session, threeDS: { kind: "cres", cRes: "abc" } } as any, { kind: "cres", cRes: "abc" }, async (d) => ({
      data: d as any,
      status: "authorized" as any,
    }))
    expect(calls[0]).toEqual({ op: "TDS_UPLOAD_CRES_RESULT", fields: { "client-order-id": "payses_1", orderid: "777", cRes: "abc" } })
    expect(calls.filter((c) => c.op === "STATUS").length).toBeGreaterThanOrEqual(2)
    expect((refreshed.data as any).threeDS).toBeUndefined()
    expect(refreshed.status).toBe("authorized")
  })

  it("after a CRes, a STATUS still showing the answered challenge is not news: polls on until final", async () => {
    const acs = "http://acs.example/challenge/1"
    const stale = { status: "processing", "redirect-to": acs, html: "<form>old</form>" }
    const { client, calls } = fakeClient([stale, stale, "approved"])
    const answered = { ...session, nextAction: { type: "redirect", url: acs } }
    await uploadThreeDS(client, answered as any, { kind: "cres", cRes: "abc" }, async (d) => ({ data: d as any }))
    expect(calls.filter((c) => c.op === "STATUS")).toHaveLength(3)
  })

  it("after a PaRes, a DIFFERENT next action is news at once; so is any action when none was stored", async () => {
    const fresh = { status: "processing", html: "<form>second step</form>" }
    const one = fakeClient([fresh, "approved"])
    await uploadThreeDS(one.client, { ...session, nextAction: { type: "html", html: "<form>old</form>" } } as any, { kind: "pares", paRes: "p" }, async (d) => ({ data: d as any }))
    expect(one.calls.filter((c) => c.op === "STATUS")).toHaveLength(1)
    const two = fakeClient([fresh, "approved"])
    await uploadThreeDS(two.client, session as any, { kind: "pares", paRes: "p" }, async (d) => ({ data: d as any }))
    expect(two.calls.filter((c) => c.op === "STATUS")).toHaveLength(1)
  })

  it("refuses uploads for the hosted flow or before a card payment started", async () => {
    const { client, calls } = fakeClient(["processing"])
    const refresh = async () => ({ data: {} })
    await expect(uploadThreeDS(client, { ...session, flow: "hosted" } as any, { kind: "cres", cRes: "a" }, refresh)).rejects.toThrow(/direct/)
    await expect(uploadThreeDS(client, { ...session, orderId: undefined } as any, { kind: "cres", cRes: "a" }, refresh)).rejects.toThrow(/No card payment/)
    expect(calls).toHaveLength(0)
  })
})

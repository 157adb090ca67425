/**
 * sendMoneyRequest: a money request is sent once; after a reply that may have been sent, only a STATUS that shows the
 * request settles it, and a STATUS that does not show it (yet) leaves it pending — never a second send. Refusals and
 * requests that certainly never left are the caller's (thrown), with no STATUS asked.
 */
import { GatewayInputError, GatewayProtocolError, GatewayServerError, GatewayTransportError, GatewayValidationError } from "../../../gateway"
import { neverLeft, reachOf } from "../reach"
import { pastProcessingWindow, sendMoneyRequest } from "../money-request"

function client(first: unknown, statuses: unknown[]) {
  const calls: string[] = []
  let s = 0
  return {
    calls,
    client: {
      request: async (op: string) => {
        calls.push(op)
        const outcome = op === "STATUS" ? statuses[Math.min(s++, statuses.length - 1)] : first
        if (outcome instanceof Error) throw outcome
        return outcome
      },
    } as any,
  }
}
const req = (over: Record<string, unknown> = {}) => ({ op: "REBILL" as const, fields: {}, status: { clientOrderId: "c-1" }, askAgainMs: [0, 0, 0], ...over })
const lost = () => new GatewayTransportError("REBILL: timed out", { indeterminate: true })
const notFound = () => new GatewayValidationError("STATUS: no such order")
const found = { type: "status-response", status: "processing", "paynet-order-id": "7001", "serial-number": "s2" }

describe("sendMoneyRequest", () => {
  it("an answered request: its reply, no STATUS", async () => {
    const c = client({ type: "async-response", "paynet-order-id": "7001" }, [])
    await expect(sendMoneyRequest(c.client, req())).resolves.toEqual({ kind: "reply", reply: expect.objectContaining({ "paynet-order-id": "7001" }) })
    expect(c.calls).toEqual(["REBILL"])
  })

  it.each([
    ["a lost reply", lost()],
    ["an unreadable reply", new GatewayProtocolError("REBILL: unreadable", {})],
    ["an HTTP 500", new GatewayServerError("REBILL: HTTP 500", { httpStatus: 500 })],
  ])("%s that STATUS shows on the second ask: shown, sent once", async (_name, error) => {
    const c = client(error, [notFound(), found])
    await expect(sendMoneyRequest(c.client, req())).resolves.toEqual({ kind: "shown", status: found })
    expect(c.calls).toEqual(["REBILL", "STATUS", "STATUS"])
  })

  it("a lost reply that STATUS never shows (not found, another transaction, STATUS down): pending, sent once", async () => {
    const c = client(lost(), [notFound(), found, new GatewayServerError("STATUS: HTTP 502", { httpStatus: 502 })])
    const out = await sendMoneyRequest(c.client, req({ shows: (s: any) => s["serial-number"] === "s3" }))
    expect(out).toEqual({ kind: "pending", reason: expect.stringMatching(/STATUS could not be read/) })
    expect(c.calls.filter((op) => op === "REBILL")).toHaveLength(1)
    expect(c.calls).toHaveLength(4)
  })

  it("a refusal, or a request that certainly never left, is thrown at once (nothing made), without a STATUS", async () => {
    for (const error of [
      new GatewayValidationError("REBILL: refused"),
      new GatewayTransportError("REBILL: connection refused", { indeterminate: false }),
      new GatewayInputError("REBILL: bad amount"),
    ]) {
      const c = client(error, [found])
      await expect(sendMoneyRequest(c.client, req())).rejects.toBe(error)
      expect(c.calls).toEqual(["REBILL"])
    }
  })
})

describe("reach: the certainly-never-left case is named by the classifier", () => {
  it("refused connection / DNS / refused before writing → neverLeft; a lost reply, a 5xx, an unknown error → maybe-sent", () => {
    expect(neverLeft(new GatewayTransportError("x", { indeterminate: false }))).toBe(true)
    expect(neverLeft(new GatewayInputError("x"))).toBe(true)
    expect(neverLeft(lost())).toBe(false)
    expect(reachOf(new GatewayServerError("x", { httpStatus: 503 }))).toBe("maybe-sent")
    expect(reachOf(new Error("?"))).toBe("maybe-sent")
  })
})

describe("pastProcessingWindow", () => {
  it("counts from when the request was sent", () => {
    const sent = new Date("2026-01-01T00:00:00Z")
    expect(pastProcessingWindow(sent, new Date("2026-01-01T00:04:59Z"), 300_000)).toBe(false)
    expect(pastProcessingWindow(sent.toISOString(), new Date("2026-01-01T00:05:00Z"), 300_000)).toBe(true)
  })
})

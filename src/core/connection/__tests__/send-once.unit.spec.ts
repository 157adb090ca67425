/**
 * sendOnce's rule for replies we cannot use: a lost reply and an unreadable one (GatewayProtocolError, e.g. a 200 with
 * a body that does not parse) are both indeterminate — STATUS first, the request is never sent again by sendOnce.
 */
import { GatewayAuthError, GatewayProtocolError, GatewayServerError, GatewayTransportError, GatewayValidationError } from "../../../gateway"
import { sendOnce, UnresolvedLostReply } from "../gateway-ops"
import { maybeSent } from "../reach"

function fakeClient(first: unknown, status: unknown) {
  const calls: string[] = []
  const client = {
    request: async (op: string) => {
      calls.push(op)
      const outcome = op === "STATUS" ? status : first
      if (outcome instanceof Error) throw outcome
      return outcome
    },
  }
  return { client: client as any, calls }
}

describe("sendOnce", () => {
  it("an unreadable 200 on a money-moving request is indeterminate: STATUS is asked and its answer adopted", async () => {
    const reply = { type: "status-response", status: "approved", "serial-number": "s1" }
    const { client, calls } = fakeClient(new GatewayProtocolError("unreadable reply"), reply)
    await expect(sendOnce(client, "PREAUTH", {} as any, { clientOrderId: "payses_1" })).resolves.toEqual({ kind: "adopted", status: reply })
    expect(calls).toEqual(["PREAUTH", "STATUS"])
  })
  it("STATUS not knowing the order after an unreadable reply → absent (the request never arrived)", async () => {
    const { client, calls } = fakeClient(new GatewayProtocolError("unreadable"), new GatewayValidationError("unknown order"))
    await expect(sendOnce(client, "CAPTURE", {} as any, { clientOrderId: "payses_1" })).resolves.toEqual({ kind: "absent" })
    expect(calls).toEqual(["CAPTURE", "STATUS"])
  })
  it.each([
    ["a 5xx", new GatewayServerError("STATUS: gateway error, HTTP 500", { httpStatus: 500 })],
    ["a refused signature", new GatewayAuthError("STATUS: gateway refused authentication, HTTP 403", { httpStatus: 403 })],
    ["another lost reply", new GatewayTransportError("STATUS: connection closed by the other side", { indeterminate: true })],
  ])("a lost reply whose STATUS fails with %s is still indeterminate, never the STATUS error; nothing is re-sent", async (_, statusError) => {
    const { client, calls } = fakeClient(new GatewayTransportError("SALE: timed out", { indeterminate: true }), statusError)
    const thrown = await sendOnce(client, "SALE", {} as any, { clientOrderId: "payses_1" }).then(() => undefined, (e) => e)
    expect(thrown).toBeInstanceOf(UnresolvedLostReply)
    expect(thrown).toBeInstanceOf(GatewayTransportError)
    expect(maybeSent(thrown)).toBe(true)
    expect(thrown.message).toContain("SALE: the reply was lost and STATUS could not tell")
    expect(thrown.message).toContain(statusError.message)
    expect(calls).toEqual(["SALE", "STATUS"])
  })
  it("a refusal is not indeterminate: thrown, no STATUS", async () => {
    const { client, calls } = fakeClient(new GatewayValidationError("bad field"), {})
    await expect(sendOnce(client, "PREAUTH", {} as any, { clientOrderId: "payses_1" })).rejects.toBeInstanceOf(GatewayValidationError)
    expect(calls).toEqual(["PREAUTH"])
  })
  it("maybeSent: lost or unreadable yes; a connection refused before sending no", () => {
    expect(maybeSent(new GatewayProtocolError("x"))).toBe(true)
    expect(maybeSent(new GatewayTransportError("x", { indeterminate: true }))).toBe(true)
    expect(maybeSent(new GatewayTransportError("x", { indeterminate: false }))).toBe(false)
  })
})

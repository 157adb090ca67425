/**
 * How a make-rebill's outcome is read (core/saved-cards/card-gateway.ts rebillCard) when the gateway does not simply answer:
 * a refusal of the rebill itself fails, and a rebill the gateway may have processed without any STATUS showing it
 * (not found yet — a gateway still processing it shows nothing — or STATUS failing) is `unknown` — never "nothing
 * charged", never a failure, and never sent twice.
 */
import { GatewayServerError, GatewayTransportError, GatewayValidationError } from "../../../gateway"
import { rebillCard, type RebillRequest } from "../card-gateway"

const REQUEST: RebillRequest = {
  clientOrderId: "payses_01TEST_1",
  cardRefId: "cr-1",
  amount: "10.42",
  currency: "EUR",
  description: "Order payses_01TEST",
  ip: "127.0.0.1",
}

/** A client answering REBILL and each STATUS call in turn as given (an Error is thrown); records what was asked. */
function client(rebill: unknown, statuses: unknown[]) {
  const calls: string[] = []
  let s = 0
  return {
    calls,
    client: {
      request: async (op: string) => {
        calls.push(op)
        const outcome = op === "STATUS" ? statuses[Math.min(s++, statuses.length - 1)] : rebill
        if (outcome instanceof Error) throw outcome
        return outcome
      },
    } as any,
  }
}

const lost = () => new GatewayTransportError("REBILL: timed out", { indeterminate: true })
const statusDown = () => new GatewayServerError("STATUS: gateway error, HTTP 500", { httpStatus: 500 })
const accepted = { type: "async-response", "paynet-order-id": "7001" }
const approved = { type: "status-response", status: "approved", "paynet-order-id": "7001" }

describe("rebillCard", () => {
  it("an answered rebill is followed to its decisive STATUS", async () => {
    const c = client(accepted, [approved])
    await expect(rebillCard(c.client, REQUEST)).resolves.toMatchObject({ kind: "status", orderId: "7001", status: { status: "approved" } })
    expect(c.calls).toEqual(["REBILL", "STATUS"])
  })

  it("a refusal of the rebill itself fails, with no STATUS", async () => {
    const c = client(new GatewayValidationError("REBILL: invalid cardrefid"), [approved])
    await expect(rebillCard(c.client, REQUEST)).rejects.toBeInstanceOf(GatewayValidationError)
    expect(c.calls).toEqual(["REBILL"])
  })

  it("a lost reply that STATUS does not know (yet): unknown, asked again a few times, REBILL never sent again", async () => {
    const c = client(lost(), [new GatewayValidationError("STATUS: unknown order")])
    await expect(rebillCard(c.client, REQUEST)).resolves.toEqual({ kind: "unknown", reason: expect.stringMatching(/STATUS does not know it yet/) })
    expect(c.calls).toEqual(["REBILL", "STATUS", "STATUS", "STATUS"])
  })

  it("a lost reply whose STATUS fails: unknown, naming why; REBILL never sent again", async () => {
    const c = client(lost(), [statusDown()])
    const result = await rebillCard(c.client, REQUEST)
    expect(result).toEqual({ kind: "unknown", reason: expect.stringMatching(/REBILL: STATUS could not be read.*HTTP 500/) })
    expect(c.calls.filter((op) => op === "REBILL")).toHaveLength(1)
  })

  it("an accepted rebill whose every STATUS fails: unknown, with the gateway order id", async () => {
    const c = client(accepted, [statusDown()])
    const result = await rebillCard(c.client, REQUEST)
    expect(result).toEqual({ kind: "unknown", orderId: "7001", reason: expect.stringMatching(/HTTP 500/) })
    expect(c.calls.filter((op) => op === "REBILL")).toHaveLength(1)
  })

  it("a failure that is not the gateway's still throws (a bug must not read as an unknown outcome)", async () => {
    const c = client(accepted, [new TypeError("boom")])
    await expect(rebillCard(c.client, REQUEST)).rejects.toBeInstanceOf(TypeError)
  })
})

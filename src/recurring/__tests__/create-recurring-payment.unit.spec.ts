/**
 * How create-recurring-payment's outcome is read (recurring/gateway-calls.ts) when the gateway does not simply answer:
 * a certain refusal is `refused` (nothing was made), but a lost reply whose STATUS then fails — even with a 403, which
 * on its own would be a refusal — is `unknown`, for a person to check; the request is never sent twice.
 */
import { GatewayAuthError, GatewayServerError, GatewayTransportError, GatewayValidationError } from "../../gateway"
import { createRecurringPayment, type RecurringRequest } from "../gateway-calls"

const REQUEST = {
  clientOrderId: "pnerp_01TEST",
  cardRefId: "cr-1",
  amount: "10.00",
  currency: "EUR",
  schedule: { period: "month", interval: 1, amount: "10.00" },
  description: "Subscription",
  serverCallbackUrl: "http://127.0.0.1:9/payneteasy/callback",
  payer: {},
} as unknown as RecurringRequest

/** A client whose create and STATUS calls fail (or answer) as given; records the operations asked for. */
function client(create: unknown, status: unknown) {
  const calls: string[] = []
  return {
    calls,
    client: {
      request: async (op: string) => {
        calls.push(op)
        const outcome = op === "STATUS" ? status : create
        if (outcome instanceof Error) throw outcome
        return outcome
      },
    } as any,
  }
}

const lost = () => new GatewayTransportError("CREATE_RP_V4: timed out", { indeterminate: true })

describe("createRecurringPayment", () => {
  it("a validation error on the request itself is a refusal, with no STATUS", async () => {
    const c = client(new GatewayValidationError("bad period"), {})
    await expect(createRecurringPayment(c.client, REQUEST)).resolves.toMatchObject({ kind: "refused" })
    expect(c.calls).toEqual(["CREATE_RP_V4"])
  })

  it.each([
    ["refused authentication (403)", new GatewayAuthError("STATUS: gateway refused authentication, HTTP 403", { httpStatus: 403 })],
    ["a 5xx", new GatewayServerError("STATUS: gateway error, HTTP 502", { httpStatus: 502 })],
  ])("a lost reply whose STATUS then fails with %s is unknown, never a refusal; nothing is sent again", async (_, statusError) => {
    const c = client(lost(), statusError)
    const result = await createRecurringPayment(c.client, REQUEST)
    expect(result).toMatchObject({ kind: "unknown", message: expect.stringMatching(/STATUS could not tell/) })
    expect(c.calls).toEqual(["CREATE_RP_V4", "STATUS"])
  })

  it("a lost reply STATUS does not know was never received: sent once more", async () => {
    const c = client(lost(), new GatewayValidationError("unknown order"))
    const result = await createRecurringPayment(c.client, REQUEST)
    expect(result).toMatchObject({ kind: "unknown" })
    expect(c.calls).toEqual(["CREATE_RP_V4", "STATUS", "CREATE_RP_V4", "STATUS"])
  })
})

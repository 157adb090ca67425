/**
 * How create-recurring-payment's outcome is read (core/recurring/gateway-calls.ts) when the gateway does not simply answer:
 * a certain refusal is `refused` (nothing was made), but a lost reply whose STATUS then fails — even with a 403, which
 * on its own would be a refusal — is `unknown`, for a person to check; so is one STATUS does not know YET (a gateway
 * still processing it shows nothing); the request is never sent twice (core/connection/money-request.ts).
 */
import { GatewayAuthError, GatewayConfigError, GatewayProtocolError, GatewayServerError, GatewayTransportError, GatewayValidationError } from "../../../gateway"
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
    expect(result).toMatchObject({ kind: "unknown", message: expect.stringMatching(/STATUS could not be read/) })
    expect(c.calls).toEqual(["CREATE_RP_V4", "STATUS", "STATUS", "STATUS"])
  })

  it("a lost reply STATUS does not know (yet) is unknown, NOT sent again: the gateway may still be processing it", async () => {
    const c = client(lost(), new GatewayValidationError("unknown order"))
    const result = await createRecurringPayment(c.client, REQUEST)
    expect(result).toMatchObject({ kind: "unknown", message: expect.stringMatching(/does not show the request yet/) })
    expect(c.calls).toEqual(["CREATE_RP_V4", "STATUS", "STATUS", "STATUS"])
  })

  it("an unreadable 200 (maybe sent) is settled by STATUS: the gateway's recurring payment is adopted, never sent twice", async () => {
    const c = client(new GatewayProtocolError("CREATE_RP_V4: reply is not valid JSON", { httpStatus: 200 }), { type: "status-response", status: "approved", "recurring-payment-id": "rp-9" })
    await expect(createRecurringPayment(c.client, REQUEST)).resolves.toEqual({ kind: "created", recurringPaymentId: "rp-9" })
    expect(c.calls).toEqual(["CREATE_RP_V4", "STATUS"])
  })

  it("a 5xx (maybe sent) is settled by STATUS first, never taken for a refusal", async () => {
    const c = client(new GatewayServerError("CREATE_RP_V4: gateway error, HTTP 500", { httpStatus: 500 }), new GatewayServerError("x", { httpStatus: 503 }))
    await expect(createRecurringPayment(c.client, REQUEST)).resolves.toMatchObject({ kind: "unknown" })
    expect(c.calls).toEqual(["CREATE_RP_V4", "STATUS", "STATUS", "STATUS"])
  })

  it("never left (no connection): unknown (nothing made, a retry may send it), sent once, no STATUS needed", async () => {
    const c = client(new GatewayTransportError("connect ECONNREFUSED", { indeterminate: false }), {})
    await expect(createRecurringPayment(c.client, REQUEST)).resolves.toMatchObject({ kind: "unknown", message: expect.stringMatching(/nothing was created/) })
    expect(c.calls).toEqual(["CREATE_RP_V4"])
  })

  it("refused by the client before sending (configuration): nothing made, for a person; sent never", async () => {
    const c = client(new GatewayConfigError("privateKeyPem is required"), {})
    await expect(createRecurringPayment(c.client, REQUEST)).resolves.toMatchObject({ kind: "unknown", message: expect.stringMatching(/not sent/) })
    expect(c.calls).toEqual(["CREATE_RP_V4"])
  })
})

/**
 * How the outcome of stopping a schedule (update-recurring-payment, core/recurring/gateway-calls.ts) is read: only the
 * gateway's reply or STATUS on the stop request's own client-orderid says "stopped"; a certain refusal is `refused`; a
 * lost reply whose STATUS fails, or does not show the stop YET, is `unknown`, never sent twice
 * (core/connection/money-request.ts); a stop that may have been sent earlier (the admin cancels again) asks STATUS
 * first and is sent only when STATUS does not know it.
 */
import { GatewayAuthError, GatewayServerError, GatewayTransportError, GatewayValidationError } from "../../../gateway"
import { stopRecurringPayment } from "../gateway-calls"

const STOP = { clientOrderId: "pnerp_01TEST-stop", recurringPaymentId: "77", finishDate: new Date("2026-11-25T12:00:00Z") }

/** A client whose update and STATUS calls answer (or fail) from the given lists, in order; records the calls. */
function client(updates: unknown[], statuses: unknown[]) {
  const calls: Array<[string, Record<string, unknown>]> = []
  return {
    calls,
    client: {
      request: async (op: string, fields: Record<string, unknown>) => {
        calls.push([op, fields])
        const outcome = (op === "STATUS" ? statuses : updates).shift()
        if (outcome instanceof Error) throw outcome
        return outcome
      },
    } as any,
  }
}
const lost = () => new GatewayTransportError("UPDATE_RP_V4: timed out", { indeterminate: true })
const ops = (c: ReturnType<typeof client>) => c.calls.map(([op]) => op)

it("the gateway's reply confirms: stopped, one request with the stop fields", async () => {
  const c = client([{ type: "update-recurring-payment-response", status: "approved" }], [])
  await expect(stopRecurringPayment(c.client, STOP, false)).resolves.toEqual({ kind: "stopped" })
  expect(c.calls).toEqual([["UPDATE_RP_V4", { "client-orderid": "pnerp_01TEST-stop", "recurring-payment-id": "77", "finish-date": "2026-11-25" }]])
})

it("a reply that says declined, or not final, is not a stop", async () => {
  await expect(stopRecurringPayment(client([{ status: "declined" }], []).client, STOP, false)).resolves.toMatchObject({ kind: "refused" })
  await expect(stopRecurringPayment(client([{ status: "processing" }], []).client, STOP, false)).resolves.toMatchObject({ kind: "unknown" })
})

it("a validation error or a 4xx is a refusal with the gateway's message; a 5xx may have been processed: STATUS settles it, or it is unknown", async () => {
  const refused = client([new GatewayValidationError("Unknown recurring-payment-id")], [])
  await expect(stopRecurringPayment(refused.client, STOP, false)).resolves.toEqual({ kind: "refused", message: expect.stringMatching(/Unknown recurring-payment-id/) })
  expect(ops(refused)).toEqual(["UPDATE_RP_V4"])
  // The one rule (core/connection/reach.ts): a 5xx is "maybe sent", so STATUS on the same client-orderid is asked.
  const e502 = () => new GatewayServerError("HTTP 502", { httpStatus: 502 })
  const down = client([e502()], [e502(), e502(), e502()])
  await expect(stopRecurringPayment(down.client, STOP, false)).resolves.toMatchObject({ kind: "unknown" })
  expect(ops(down)).toEqual(["UPDATE_RP_V4", "STATUS", "STATUS", "STATUS"])
  const processed = client([new GatewayServerError("HTTP 502", { httpStatus: 502 })], [{ status: "approved" }])
  await expect(stopRecurringPayment(processed.client, STOP, false)).resolves.toEqual({ kind: "stopped" })
  expect(ops(processed)).toEqual(["UPDATE_RP_V4", "STATUS"])
})

it("a lost reply is settled by STATUS on the same client-orderid: approved = stopped, declined = refused", async () => {
  const ok = client([lost()], [{ type: "status-response", status: "approved" }])
  await expect(stopRecurringPayment(ok.client, STOP, false)).resolves.toEqual({ kind: "stopped" })
  expect(ok.calls.map(([op, f]) => [op, f["client-orderid"] ?? f.client_orderid])).toEqual([["UPDATE_RP_V4", STOP.clientOrderId], ["STATUS", STOP.clientOrderId]])
  const no = client([lost()], [{ type: "status-response", status: "declined", "error-message": "not allowed" }])
  await expect(stopRecurringPayment(no.client, STOP, false)).resolves.toEqual({ kind: "refused", message: expect.stringMatching(/declined: not allowed/) })
})

it.each([
  ["a 5xx", new GatewayServerError("STATUS: HTTP 500", { httpStatus: 500 })],
  ["refused authentication", new GatewayAuthError("STATUS: HTTP 403", { httpStatus: 403 })],
])("a lost reply whose STATUS fails with %s is unknown, and nothing is sent again", async (_, statusError) => {
  const c = client([lost()], [statusError, statusError, statusError])
  await expect(stopRecurringPayment(c.client, STOP, false)).resolves.toEqual({ kind: "unknown", message: expect.stringMatching(/STATUS (could not be read|does not know it yet)/) })
  expect(ops(c)).toEqual(["UPDATE_RP_V4", "STATUS", "STATUS", "STATUS"])
})

it("a lost reply STATUS does not know (yet) is unknown, NOT sent again: the gateway may still be processing it", async () => {
  const notFound = () => new GatewayValidationError("unknown order")
  const c = client([lost(), lost()], [notFound(), notFound(), notFound()])
  await expect(stopRecurringPayment(c.client, STOP, false)).resolves.toMatchObject({ kind: "unknown", message: expect.stringMatching(/does not show the stop yet/) })
  expect(ops(c)).toEqual(["UPDATE_RP_V4", "STATUS", "STATUS", "STATUS"])
})

it("may have been sent before: STATUS first; known = its answer and no request; unknown to STATUS = sent; STATUS failing = unknown", async () => {
  const known = client([], [{ status: "approved" }])
  await expect(stopRecurringPayment(known.client, STOP, true)).resolves.toEqual({ kind: "stopped" })
  expect(ops(known)).toEqual(["STATUS"])
  const never = client([{ status: "approved" }], [new GatewayValidationError("unknown order")])
  await expect(stopRecurringPayment(never.client, STOP, true)).resolves.toEqual({ kind: "stopped" })
  expect(ops(never)).toEqual(["STATUS", "UPDATE_RP_V4"])
  const blind = client([], [new GatewayServerError("HTTP 500", { httpStatus: 500 })])
  await expect(stopRecurringPayment(blind.client, STOP, true)).resolves.toMatchObject({ kind: "unknown" })
  expect(ops(blind)).toEqual(["STATUS"])
})

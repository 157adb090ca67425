/**
 * The one rule for "did the request reach the gateway?" (reach.ts), as a table over every error a gateway call can
 * throw, and sendMoneyRequest's use of it: only a maybe-sent failure is followed by STATUS.
 */
import {
  GatewayAuthError, GatewayConfigError, GatewayError, GatewayInputError, GatewayProtocolError, GatewayServerError,
  GatewayTransportError, GatewayValidationError,
} from "../../../gateway"
import * as gateway from "../../../gateway"
import { UnresolvedLostReply } from "../gateway-ops"
import { sendMoneyRequest } from "../money-request"
import { certainlyNothingMade, maybeSent, reachOf, type Reach } from "../reach"

const TABLE: Array<[string, unknown, Reach]> = [
  ["transport, connection never made", new GatewayTransportError("connect refused", { indeterminate: false }), "not-sent"],
  ["transport, reply lost after sending", new GatewayTransportError("socket hang up", { indeterminate: true }), "maybe-sent"],
  ["STATUS could not settle a lost reply", new UnresolvedLostReply("SALE", new Error("x")), "maybe-sent"],
  ["unreadable 2xx (garbage / truncated / HTML)", new GatewayProtocolError("SALE: reply is not valid JSON", { httpStatus: 200 }), "maybe-sent"],
  ["reply not the operation's shape", new GatewayProtocolError("SALE: reply does not match", { httpStatus: 200 }), "maybe-sent"],
  ["unexpected HTTP status (3xx)", new GatewayProtocolError("SALE: unexpected HTTP 302", { httpStatus: 302 }), "maybe-sent"],
  ["HTTP 500", new GatewayServerError("SALE: gateway error, HTTP 500", { httpStatus: 500 }), "maybe-sent"],
  ["HTTP 503", new GatewayServerError("SALE: gateway error, HTTP 503", { httpStatus: 503 }), "maybe-sent"],
  ["type=error answered with 200", new GatewayServerError("SALE: gateway error, HTTP 200", { httpStatus: 200 }), "answered"],
  ["server error without a status", new GatewayServerError("?"), "maybe-sent"],
  ["HTTP 400 validation", new GatewayValidationError("bad", { httpStatus: 400 }), "answered"],
  ["type=validation-error", new GatewayValidationError("bad", { httpStatus: 200 }), "answered"],
  ["HTTP 401", new GatewayAuthError("no", { httpStatus: 401 }), "answered"],
  ["HTTP 403", new GatewayAuthError("no", { httpStatus: 403 }), "answered"],
  ["input refused before sending", new GatewayInputError("amount must be", { field: "amount" }), "not-sent"],
  ["configuration refused before sending", new GatewayConfigError("controlKey is required"), "not-sent"],
  ["bare GatewayError (unexpected failure)", new GatewayError("SALE: unexpected failure"), "maybe-sent"],
  ["plain Error", new Error("boom"), "maybe-sent"],
  ["TypeError", new TypeError("x is undefined"), "maybe-sent"],
  ["a string", "boom", "maybe-sent"],
  ["undefined", undefined, "maybe-sent"],
  ["null", null, "maybe-sent"],
]

describe("reachOf: did the request reach the gateway?", () => {
  it.each(TABLE)("%s → %s", (_name, error, expected) => {
    expect(reachOf(error)).toBe(expected)
    expect(maybeSent(error)).toBe(expected === "maybe-sent")
    expect(certainlyNothingMade(error)).toBe(expected !== "maybe-sent")
  })

  it("the table covers every error class the gateway client exports", () => {
    const classes = (Object.values(gateway) as unknown[]).filter(
      (v): v is typeof GatewayError => typeof v === "function" && (v === GatewayError || v.prototype instanceof GatewayError)
    )
    const covered = new Set(TABLE.map(([, e]) => (e as object | null)?.constructor))
    for (const k of classes) expect({ class: k.name, covered: covered.has(k) }).toEqual({ class: k.name, covered: true })
    expect(classes.length).toBeGreaterThanOrEqual(8)
  })
})

describe("sendMoneyRequest follows the rule", () => {
  function client(first: unknown, status: unknown) {
    const calls: string[] = []
    return {
      calls,
      c: {
        request: async (op: string) => {
          calls.push(op)
          const outcome = op === "STATUS" ? status : first
          if (outcome instanceof Error) throw outcome
          return outcome
        },
      } as any,
    }
  }
  it.each(TABLE.filter(([, e]) => e instanceof Error))("%s: STATUS asked only when maybe sent", async (_n, error, expected) => {
    const { c, calls } = client(error, { type: "status-response", status: "approved", "paynet-order-id": "1" })
    const result = await sendMoneyRequest(c, { op: "SALE", fields: {}, status: { clientOrderId: "payses_1" } }).then((r) => r, (e) => ({ thrown: e }))
    if (expected === "maybe-sent") {
      expect(calls).toEqual(["SALE", "STATUS"])
      expect(result).toMatchObject({ kind: "shown" })
    } else {
      expect(calls).toEqual(["SALE"])
      expect(result).toEqual({ thrown: error })
    }
  })
})

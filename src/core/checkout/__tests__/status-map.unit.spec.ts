import { PaymentSessionStatus } from "@medusajs/framework/utils"
import {
  GATEWAY_STATUSES, NEXT_ACTIONS, STATUS_TABLE, TRANSACTION_TYPES, statusKey, toSessionStatus, transactionTypeKey,
} from "../status-map"

const { AUTHORIZED, CAPTURED, PENDING, REQUIRES_MORE, ERROR, CANCELED } = PaymentSessionStatus

/** The expected value of every cell, written from the gateway facts (notes §4), independently of the table. */
function expected(status: string, type: string, next: string): PaymentSessionStatus {
  if (["declined", "error", "filtered"].includes(status)) return ERROR
  if (status === "approved") {
    if (type === "preauth") return AUTHORIZED
    if (type === "sale" || type === "capture") return CAPTURED
    if (type === "void" || type === "reversal") return CANCELED
    return PENDING
  }
  return next === "none" ? PENDING : REQUIRES_MORE
}

const cells = GATEWAY_STATUSES.flatMap((s) => TRANSACTION_TYPES.flatMap((t) => NEXT_ACTIONS.map((n) => [s, t, n] as const)))

describe("status table: gateway status × transaction type × next action → session status", () => {
  it("covers every combination (8 × 6 × 3)", () => {
    expect(cells).toHaveLength(8 * 6 * 3)
  })

  it.each(cells)("%s × %s × %s", (status, type, next) => {
    expect(STATUS_TABLE[status][type][next]).toBe(expected(status, type, next))
  })

  it.each(cells)("only approved can authorize or capture: %s × %s × %s", (status, type, next) => {
    const s = STATUS_TABLE[status][type][next]
    // authorized / captured exactly when the gateway approved a transaction that holds or takes money
    expect(s === AUTHORIZED || s === CAPTURED).toBe(status === "approved" && ["preauth", "sale", "capture"].includes(type))
  })
})

describe("toSessionStatus on raw gateway values", () => {
  it.each([
    ["approved", "preauth", {}, AUTHORIZED],
    ["approved", "sale", {}, CAPTURED],
    ["APPROVED ", "Sale", {}, CAPTURED],
    ["approved", "capture", {}, CAPTURED],
    ["approved", "return", {}, CANCELED],
    ["approved", "reversal", {}, CANCELED],
    ["approved", "void", {}, CANCELED],
    ["approved", "chargeback", {}, PENDING],
    ["approved", undefined, {}, PENDING],
    ["processing", "sale", {}, PENDING],
    ["processing", "sale", { html: "<form></form>" }, REQUIRES_MORE],
    ["processing", "preauth", { redirectTo: "https://acs.example/x" }, REQUIRES_MORE],
    ["processing", "preauth", { html: "   " }, PENDING],
    ["unknown", "sale", {}, PENDING],
    ["chain_declined", "sale", {}, PENDING],
    ["declined", "sale", { html: "<form/>" }, ERROR],
    ["filtered", "preauth", {}, ERROR],
    ["error", "preauth", {}, ERROR],
    ["settled", "preauth", {}, PENDING],
    ["", "preauth", {}, PENDING],
    [undefined, "preauth", {}, PENDING],
    ["other", "preauth", {}, PENDING],
  ] as const)("%s / %s / %j → %s", (status, type, next, out) => {
    expect(toSessionStatus({ status: status as any, transactionType: type as any, ...next })).toBe(out)
  })

  it("unlisted statuses and types fold into 'other'", () => {
    expect(statusKey("weird")).toBe("other")
    expect(statusKey("other")).toBe("other")
    expect(transactionTypeKey("chargeback")).toBe("other")
    expect(transactionTypeKey("return")).toBe("reversal")
  })
})

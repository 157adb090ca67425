/**
 * The money-movement log lines (movement-log.ts) and the ids every payment log line ends with (payment-log.ts):
 * what moved, the ledger's exact amount and the gateway's status, then the five ids in one order, and the trace id
 * while traced. Pure: the rows are given.
 */
import { movementLines } from "../movement-log"
import { paymentIdsText, paymentLogger } from "../../telemetry/payment-log"
import { inSpan } from "../../telemetry/otel"
import { recordTelemetry } from "../../telemetry/__tests__/recorder"

const payment = {
  id: "pay_1", provider_id: "pp_payneteasy_payneteasy", payment_session_id: "payses_1", payment_collection_id: "paycol_1",
  captured_at: null,
  data: {
    session_id: "payses_1", clientOrderId: "payses_1", orderId: "1000001", amount: "54.85", currency: "EUR", transactionType: "preauth",
    gatewayStatus: "approved",
    captures: [{ id: "capt_1", amount: "30.00", currency: "EUR", status: "approved" }],
    refunds: [{ id: "ref_1", amount: "12.50", currency: "EUR", status: "processing", pending: true }],
  },
  captures: [{ id: "capt_1", created_at: "2026-12-02T08:00:00Z" }],
  refunds: [{ id: "ref_1", created_at: "2026-12-02T08:01:00Z" }],
}

describe("money-movement log lines", () => {
  it("say what moved, the ledger's exact amount and the gateway's status", () => {
    expect(movementLines("order.placed", payment)).toBe("PaynetEasy: order placed, payment authorized (preauth) 54.85 EUR (gateway approved)")
    expect(movementLines("payment.captured", payment)).toBe("PaynetEasy: captured 30.00 EUR (gateway approved, capt_1)")
    expect(movementLines("payment.refunded", payment)).toBe("PaynetEasy: refunded 12.50 EUR (gateway processing, pending reconciliation, ref_1)")
    expect(movementLines("order.placed", { ...payment, captured_at: "2026-12-02T08:00:00Z" })).toContain("payment paid (sale) 54.85 EUR")
  })

  it("are not written for another provider's payment", () => {
    expect(movementLines("payment.captured", { ...payment, provider_id: "pp_system_default" })).toBeUndefined()
  })
})

describe("the ids of a payment log line", () => {
  it("end the line in one order, the known ones only", () => {
    const lines: string[] = []
    const sink = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) }
    paymentLogger(sink, { paymentSessionId: "payses_1", paymentId: "pay_1", orderId: "order_1", gatewayOrderId: "1000001", clientOrderId: "payses_1" }).info("PaynetEasy: captured")
    paymentLogger(sink, { clientOrderId: "payses_1", gatewayOrderId: "1000001" }).warn("PaynetEasy: given back")
    expect(lines).toEqual([
      "PaynetEasy: captured [payment_session=payses_1 payment=pay_1 order=order_1 gateway_order=1000001 client_order=payses_1]",
      "PaynetEasy: given back [gateway_order=1000001 client_order=payses_1]",
    ])
    expect(paymentIdsText({})).toBe("")
  })

  it("name the trace while the line is written in a traced span", async () => {
    const rec = recordTelemetry()
    try {
      const [text, traceId] = await inSpan("x", {}, async (span) => [paymentIdsText({ paymentId: "pay_1" }), span.spanContext().traceId])
      expect(text).toBe(` [payment=pay_1 trace=${traceId}]`)
    } finally {
      await rec.stop()
    }
  })
})

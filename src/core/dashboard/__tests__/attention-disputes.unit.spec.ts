/**
 * The attention queue's dispute items (issue 51): one per kind, listed once STATUS confirmed the event (row
 * `processed`), with what to do, the deadline and the reason code; a refuted one (forged or a duplicate) is not
 * listed, one whose processing failed is a callback_failed item.
 */
import { DISPUTE_KINDS, disputeWireType } from "../../../gateway/disputes"
import { DISPUTE_RULES, disputeDeadline } from "../../disputes/disputes"
import { fromCallback } from "../attention"

const AT = new Date("2026-11-25T13:00:00.000Z")
const row = (over: Record<string, unknown>) =>
  ({ id: "pnecb_1", source: "callback", type: "chargeback", status: "approved", amount: "4.00", currency: "EUR", orderid: "9001", client_orderid: "payses_1",
    session_id: "payses_1", outcome: "processed", outcome_detail: "recorded", received_at: AT, params: { "reason-code": "13.1" }, ...over }) as any

describe("attention: disputes", () => {
  it.each(DISPUTE_KINDS.map((k) => [k] as const))("%s confirmed by STATUS: its own kind, what to do, by when, the reason code", (kind) => {
    const item = fromCallback(row({ type: disputeWireType(kind) }))
    expect(item).toMatchObject({
      kind, amount: "4.00", currency: "EUR", reason_code: "13.1", what_to_do: DISPUTE_RULES[kind].whatToDo,
      deadline: disputeDeadline(kind, AT), title: expect.stringMatching(/of 4\.00 EUR \(reason code 13\.1\) on gateway order 9001/),
    })
  })

  it("a refuted dispute (ignored) is not listed; one whose processing failed is a failed callback; no deadline elsewhere", () => {
    expect(fromCallback(row({ outcome: "ignored" }))).toBeUndefined()
    expect(fromCallback(row({ outcome: "received" }))).toBeUndefined()
    expect(fromCallback(row({ outcome: "failed" }))).toMatchObject({ kind: "callback_failed", deadline: null })
  })
})

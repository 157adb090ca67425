import type { PaynetEasyClient } from "../client"
import { confirmLaterEvent } from "../later-event"
import { GATEWAY_STATUSES, isApproved, isDeclined, isFinal, parseGatewayStatus } from "../statuses"

type Tx = { serial: string; type: string; status: string; amount?: string; extra?: Record<string, string> }

/** A STATUS-only client over a fixed list of transactions (latest last), answering like the gateway. */
function fakeClient(txs: Tx[], calls: Array<string | undefined> = []): PaynetEasyClient {
  return {
    request: async (op: string, fields: Record<string, string | undefined>) => {
      expect(op).toBe("STATUS")
      calls.push(fields["by-request-sn"])
      const sn = fields["by-request-sn"]
      const tx = sn ? txs.find((t) => t.serial === sn) : txs[txs.length - 1]
      if (!tx) throw new Error(`Unknown by-request-sn: ${sn}`)
      return { type: "status-response", status: tx.status, "serial-number": tx.serial, "transaction-type": tx.type, amount: tx.amount ?? "10.42", currency: "EUR", ...tx.extra }
    },
  } as unknown as PaynetEasyClient
}

const claim = { orderid: "1000001", clientOrderId: "payses_1", type: "chargeback", status: "approved", amount: "10.42", currency: "EUR" }
const sale: Tx = { serial: "s0", type: "sale", status: "approved" }

describe("confirmLaterEvent: a later event is a fact only when STATUS shows its type, status and amount", () => {
  it("confirms a dispute by its canonical type whatever alias the callback used, with STATUS's reason code and date", async () => {
    const extra = { "reason-code": "10.4", "paynet-processing-date": "2026-11-25 13:00:00Z" }
    const rr = { serial: "s1", type: "retrieval_request", status: "approved", amount: "10.42", extra }
    const out = await confirmLaterEvent(fakeClient([sale, rr]), { ...claim, type: "retrieval-request" })
    expect(out).toEqual({
      confirmed: true,
      event: expect.objectContaining({ type: "retrieval_request", serial: "s1", reasonCode: "10.4", processedAt: "2026-11-25T13:00:00.000Z" }),
    })
    // a chargeback reversal is not a reversal (a refund): the two never confirm each other
    const reversal = await confirmLaterEvent(fakeClient([sale, { serial: "s2", type: "reversal", status: "approved" }]), { ...claim, type: "chargeback_reversal" })
    expect(reversal.confirmed).toBe(false)
  })


  it("confirms a chargeback that STATUS shows with the same amount, with the gateway's values", async () => {
    const out = await confirmLaterEvent(fakeClient([sale, { serial: "s1", type: "chargeback", status: "approved", amount: "10.420" }]), claim)
    expect(out).toEqual({ confirmed: true, event: expect.objectContaining({ type: "chargeback", status: "approved", amount: "10.420", serial: "s1" }) })
  })

  it("refuses a genuine sale callback replayed as a chargeback, and one with another amount", async () => {
    const onlySale = await confirmLaterEvent(fakeClient([sale]), claim)
    expect(onlySale).toEqual({ confirmed: false, reason: expect.stringMatching(/no unrecorded chargeback approved of 10.42 EUR.*checked: sale approved/) })
    const other = await confirmLaterEvent(fakeClient([sale, { serial: "s1", type: "chargeback", status: "approved", amount: "1.00" }]), claim)
    expect(other.confirmed).toBe(false)
    const declined = await confirmLaterEvent(fakeClient([sale, { serial: "s1", type: "chargeback", status: "declined" }]), claim)
    expect(declined.confirmed).toBe(false)
  })

  it("never confirms twice on one serial, and finds older transactions through the serials the caller knows", async () => {
    const txs = [sale, { serial: "r1", type: "reversal", status: "approved", amount: "3.00" }, { serial: "r2", type: "reversal", status: "approved", amount: "2.00" }]
    const ret = { ...claim, type: "return", amount: "3.00" }
    expect((await confirmLaterEvent(fakeClient(txs), ret)).confirmed).toBe(false) // only the latest (r2) is visible
    const found = await confirmLaterEvent(fakeClient(txs), ret, { serials: ["r1", "r2"] })
    expect(found).toEqual({ confirmed: true, event: expect.objectContaining({ type: "reversal", serial: "r1", amount: "3.00" }) })
    expect((await confirmLaterEvent(fakeClient(txs), ret, { serials: ["r1"], used: new Set(["r1"]) })).confirmed).toBe(false)
  })

  it("a made-up serial in the callback is asked about and skipped", async () => {
    const calls: Array<string | undefined> = []
    const out = await confirmLaterEvent(fakeClient([sale, { serial: "s1", type: "chargeback", status: "approved" }], calls), { ...claim, serial: "forged" })
    expect(out.confirmed).toBe(true)
    expect(calls).toEqual([undefined, "forged", "s1"])
  })
})

describe("gateway statuses: one enum with an explicit other", () => {
  it("derives from the operation table's final and non-final lists, plus other", () => {
    expect(GATEWAY_STATUSES).toEqual(["approved", "declined", "error", "filtered", "processing", "unknown", "chain_declined", "other"])
  })
  it("parses the wire value; anything unlisted is other, never final or approved", () => {
    expect(parseGatewayStatus(" Approved ")).toBe("approved")
    for (const v of ["weird", "", undefined, null, 3, "other"]) expect(parseGatewayStatus(v)).toBe("other")
    expect([isFinal("weird"), isApproved("weird"), isDeclined("weird")]).toEqual([false, false, false])
  })
  it("isFinal / isApproved / isDeclined on bare statuses and replies", () => {
    expect(["approved", "declined", "error", "filtered", "processing", "unknown", "chain_declined"].map((s) => [isFinal(s), isApproved({ status: s }), isDeclined(s)])).toEqual([
      [true, true, false], [true, false, true], [true, false, true], [true, false, true], [false, false, false], [false, false, false], [false, false, false],
    ])
    expect(isFinal({})).toBe(false)
  })
})

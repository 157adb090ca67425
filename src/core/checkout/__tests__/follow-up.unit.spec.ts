/**
 * The pure halves of the follow-up rules (follow-up.ts, session-data.ts): judging a STATUS after a lost reply
 * against the snapshot, checking the amount of an adopted transaction, and listing undecided ledger entries; and
 * followUp on a scripted client (the seam it is given) for what happens after the request was answered.
 */
import { GatewayTransportError } from "../../../gateway/errors"
import { amountAgrees, followUp, judgeLostReply } from "../follow-up"
import { pendingLedgerEntries } from "../session-data"

const st = (serial: string | undefined, type: string, amount?: string, status = "approved") =>
  ({ type: "status-response", status, "serial-number": serial, "transaction-type": type, amount }) as any

describe("judgeLostReply", () => {
  it("the snapshot's serial still latest → not shown yet (NOT proof that it never arrived: the gateway may still be processing it)", () => {
    expect(judgeLostReply(st("s1", "capture"), st("s1", "capture"), "capture")).toBe("not-shown-yet")
  })
  it("a new serial of our kind → new; of another kind, or no serial to compare → unclear", () => {
    expect(judgeLostReply(st("s1", "capture"), st("s2", "capture"), "capture")).toBe("new")
    expect(judgeLostReply(st("s1", "capture"), st("s2", "return"), "reversal")).toBe("new")
    expect(judgeLostReply(st("s1", "capture"), st("s2", "reversal"), "capture")).toBe("unclear")
    expect(judgeLostReply(st(undefined, "preauth"), st("s2", "capture"), "capture")).toBe("unclear")
    expect(judgeLostReply(st("s1", "preauth"), st(undefined, "capture"), "capture")).toBe("unclear")
  })
})

describe("amountAgrees (STATUS amount = the order's held/captured amount)", () => {
  it("reversal: the order amount fell by exactly the requested amount", () => {
    expect(amountAgrees("reversal", st("a", "capture", "9.42"), st("b", "reversal", "7.42"), "2.00", "EUR")).toBe(true)
    expect(amountAgrees("reversal", st("a", "capture", "9.42"), st("b", "reversal", "8.42"), "2.00", "EUR")).toBe(false)
    expect(amountAgrees("reversal", st("a", "capture", undefined), st("b", "reversal", "8.42"), "2.00", "EUR")).toBe(false)
  })
  it("capture: the hold is unchanged, or the gateway reports the transaction's own amount", () => {
    expect(amountAgrees("capture", st("a", "capture", "10.42"), st("b", "capture", "10.42"), "3.00", "EUR")).toBe(true)
    expect(amountAgrees("capture", st("a", "capture", "10.42"), st("b", "capture", "3"), "3.00", "EUR")).toBe(true)
    expect(amountAgrees("capture", st("a", "capture", "10.42"), st("b", "capture", "6.42"), "3.00", "EUR")).toBe(false)
    expect(amountAgrees("capture", st("a", "capture", "10.42"), st("b", "capture", undefined), "3.00", "EUR")).toBe(false)
  })
  it("a void / full return names no amount; an unreadable amount never agrees", () => {
    expect(amountAgrees("void", st("a", "sale", "5"), st("b", "void", "0"), undefined, "EUR")).toBe(true)
    expect(amountAgrees("reversal", st("a", "sale", "5"), st("b", "reversal", "n/a"), "1", "EUR")).toBe(false)
  })
})

describe("pendingLedgerEntries", () => {
  const base = { session_id: "payses_1", clientOrderId: "payses_1", orderId: "1000001", flow: "hosted", transactionType: "preauth", amount: "10.42", currency: "EUR" }
  it("returns undecided captures, refunds and the void with what STATUS needs; decided ones are left out", () => {
    const data = {
      ...base,
      captures: [
        { id: "capt_1", amount: "4.00", currency: "EUR", status: "approved", serialNumber: "s1" },
        { id: "capt_2", amount: "3.00", currency: "EUR", status: "processing", serialNumber: "s2", pending: true },
      ],
      refunds: [{ id: "ref_1", amount: "1.00", status: "unknown", serialNumber: "s3", pending: true }, { id: "ref_0", amount: "1.00", status: "declined" }],
      voidEntry: { id: "void", amount: "all", status: "processing", serialNumber: "s4", pending: true },
    }
    expect(pendingLedgerEntries(data)).toEqual([
      { kind: "capture", id: "capt_2", amount: "3.00", currency: "EUR", status: "processing", serialNumber: "s2", clientOrderId: "payses_1", orderId: "1000001" },
      { kind: "refund", id: "ref_1", amount: "1.00", currency: undefined, status: "unknown", serialNumber: "s3", clientOrderId: "payses_1", orderId: "1000001" },
      { kind: "void", id: "void", amount: "all", currency: undefined, status: "processing", serialNumber: "s4", clientOrderId: "payses_1", orderId: "1000001" },
    ])
  })
  it("nothing pending, or data that is not ours → []", () => {
    expect(pendingLedgerEntries({ ...base, captures: [{ id: "c", amount: "1", status: "APPROVED" }] })).toEqual([])
    expect(pendingLedgerEntries({ payer: { email: "x" } })).toEqual([])
    expect(pendingLedgerEntries(undefined)).toEqual([])
  })
})

describe("followUp once the request was answered", () => {
  /** A client that answers the STATUS snapshot, then the request itself, then fails every later STATUS as `later` says. */
  const scripted = (later: () => unknown, reply: Record<string, string> = { type: "async-response", status: "processing", "serial-number": "S-2", "paynet-order-id": "77" }) => {
    const calls: string[] = []
    let statuses = 0
    const client = {
      request: async (op: string) => {
        calls.push(op)
        if (op !== "STATUS") return reply
        if (statuses++ === 0) return st("S-1", "capture", "10.42")
        return later()
      },
    } as any
    return { client, calls }
  }
  const ask = { op: "RETURN" as const, fields: {}, query: { clientOrderId: "c-1", orderId: "77" }, amount: "1.25", currency: "EUR" }

  it("a follow-up STATUS that fails is pending with the request's serial, not an error (the money is at the gateway)", async () => {
    const { client, calls } = scripted(() => {
      throw new GatewayTransportError("STATUS: HTTP 500", { operation: "STATUS", indeterminate: false })
    })
    await expect(followUp(client, ask)).resolves.toEqual({ status: "processing", serialNumber: "S-2", pending: true })
    expect(calls.filter((c) => c === "RETURN")).toHaveLength(1)
  })

  it("an answer with no serial whose follow-up STATUS fails is pending after the snapshot's serial (what reconciliation looks past), with when it was sent", async () => {
    const { client } = scripted(() => {
      throw new GatewayTransportError("STATUS: HTTP 500", { operation: "STATUS", indeterminate: false })
    }, { type: "async-response", status: "processing", "paynet-order-id": "77" })
    const outcome = await followUp(client, ask)
    expect(outcome).toEqual({ status: "processing", pending: true, afterSerial: "S-1", sentAt: expect.any(String) })
  })

  it("a follow-up STATUS about another payment decides nothing: pending as well", async () => {
    const { client } = scripted(() => ({ ...st("S-2", "reversal", "9.17"), "merchant-order-id": "someone-else", "paynet-order-id": "99" }))
    await expect(followUp(client, ask)).resolves.toMatchObject({ serialNumber: "S-2", pending: true })
  })
})

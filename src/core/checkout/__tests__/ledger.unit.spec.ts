import { findEntry, parseTarget, pendingEntries, withFinalStatus } from "../ledger"

const data = {
  session_id: "payses_01ABC",
  clientOrderId: "payses_01ABC",
  orderId: "314201",
  flow: "hosted",
  transactionType: "preauth",
  amount: "10.42",
  currency: "EUR",
  captures: [
    { id: "capt_1", amount: "5.00", status: "approved", serialNumber: "s1" },
    { id: "capt_2", amount: "5.42", status: "processing", pending: true, serialNumber: "s2" },
  ],
  refunds: [
    { id: "ref_1", amount: "1.00", status: "unknown", pending: true, serialNumber: "s3" },
    { id: "ref_2", amount: "2.00", status: "declined" },
  ],
}

describe("payment ledger (reconciliation of captures, refunds and voids)", () => {
  it("finds entries still waiting for a final gateway status, one watch target each", () => {
    expect(pendingEntries(data).map((p) => p.target)).toEqual(["capture:capt_2", "refund:ref_1"])
    expect(pendingEntries(data)[0].entry).toMatchObject({ id: "capt_2", amount: "5.42", serialNumber: "s2" })
    expect(pendingEntries(undefined)).toEqual([])
    expect(pendingEntries({ captures: [{ id: "x", amount: "1", status: "processing" }] })).toEqual([]) // not our data
  })

  it("writes a final status onto exactly one entry and keeps the others; the entry is then no longer pending", () => {
    const patch = withFinalStatus(data, "capture:capt_2", "approved", { checkedAt: "2026-01-01T00:00:00.000Z" })!
    expect(patch.captures).toEqual([
      data.captures[0],
      { ...data.captures[1], status: "approved", pending: false, reconciledAt: "2026-01-01T00:00:00.000Z" },
    ])
    expect(patch.refunds).toBeUndefined()
    expect(pendingEntries({ ...data, ...patch }).map((p) => p.target)).toEqual(["refund:ref_1"])
  })

  it("records the gateway's reason on a declined entry", () => {
    const patch = withFinalStatus(data, "refund:ref_1", "declined", { errorCode: "5", errorMessage: "no", checkedAt: "t" })!
    const after = { ...data, ...patch }
    expect(findEntry(after, "refund:ref_1")).toMatchObject({ status: "declined", pending: false, error: { code: "5", message: "no" } })
    expect(pendingEntries(after).map((p) => p.target)).toEqual(["capture:capt_2"])
  })

  it("follows a pending void (voidEntry) like a ledger entry", () => {
    const withVoid = { ...data, voidEntry: { id: "void", amount: "10.42", status: "processing", pending: true, serialNumber: "s9" } }
    expect(pendingEntries(withVoid).map((p) => p.target)).toContain("void:void")
    const patch = withFinalStatus(withVoid, "void:void", "approved", { checkedAt: "t" })!
    expect(patch).toEqual({ voidEntry: { ...withVoid.voidEntry, status: "approved", pending: false, reconciledAt: "t" } })
    expect(pendingEntries({ ...withVoid, ...patch }).map((p) => p.target)).not.toContain("void:void")
  })

  it("refuses unknown targets", () => {
    expect(withFinalStatus(data, "capture:nope", "approved", { checkedAt: "t" })).toBeUndefined()
    expect(parseTarget("")).toBeUndefined()
    expect(parseTarget("chargeback:1")).toBeUndefined()
    expect(parseTarget("refund:ref_1")).toEqual({ kind: "refund", id: "ref_1" })
  })
})

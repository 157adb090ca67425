import { paramsForVerification } from "../verify"

const base = { status: "approved", orderid: "1", client_orderid: "payses_1", control: "abc" }

describe("paramsForVerification (the control covers status + orderid + client_orderid, not type)", () => {
  it("passes an initial sale / preauth callback through unchanged, and its mapped action applies", () => {
    for (const type of ["sale", "preauth", "SALE"]) {
      const p = { ...base, type }
      const out = paramsForVerification(p, "preauth")
      expect(out.params).toBe(p)
      expect(out.actionApplies).toBe(true)
    }
  })

  it("asks about a chargeback / reversal / typeless return as the session's own type; the action does not apply", () => {
    for (const type of ["chargeback", "reversal", "capture", undefined]) {
      const p: Record<string, string> = type ? { ...base, type } : { ...base }
      const out = paramsForVerification(p, "preauth")
      expect(out.params).toEqual({ ...base, type: "preauth" })
      expect(out.params.control).toBe("abc")
      expect(out.actionApplies).toBe(false)
      expect(p.type).toBe(type) // the caller's params are not modified
    }
  })

  it("falls back to sale when the session's type is unknown", () => {
    expect(paramsForVerification({ ...base, type: "chargeback" }, undefined).params.type).toBe("sale")
    expect(paramsForVerification({ ...base, type: "chargeback" }, "weird").params.type).toBe("sale")
  })
})

import { refuseUnusableInput } from "../request-guard"

function run(req: Record<string, unknown>) {
  let status = 0
  let body: any
  let nexted = false
  const res = { status: (s: number) => ((status = s), res), json: (b: unknown) => ((body = b), res) } as any
  refuseUnusableInput({ query: {}, ...req } as any, res, () => {
    nexted = true
  })
  return { status, body, nexted }
}

describe("request guard", () => {
  it("passes ordinary requests on", () => {
    expect(run({ originalUrl: "/admin/payneteasy/callbacks?limit=5", query: { limit: "5", "a.b": "x" }, body: { note: "ok" } }).nexted).toBe(true)
  })
  it("refuses a NUL byte in the URL (encoded or not) or anywhere in the body with 400", () => {
    expect(run({ originalUrl: "/store/payneteasy/payment-sessions/%00/card" })).toMatchObject({ status: 400, nexted: false })
    expect(run({ originalUrl: "/x", body: { card: { holder: ["a", "b\u0000"] } } })).toMatchObject({ status: 400, nexted: false })
    expect(run({ originalUrl: "/x", body: { ["k\u0000"]: 1 } }).status).toBe(400)
    expect(run({ originalUrl: "/x?a=%2500" }).nexted).toBe(true) // an escaped percent sign is not a NUL
  })
  it("refuses a query key with more than two dot-separated parts, naming it", () => {
    const r = run({ originalUrl: "/x", query: { "../../etc/passwd": "1" } })
    expect(r.status).toBe(400)
    expect(r.body.message).toContain("../../etc/passwd")
  })
})

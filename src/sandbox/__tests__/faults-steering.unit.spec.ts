/**
 * Fault injection (latency, 500, connection reset, response lost), reset, keep-alive connection counting, and the
 * HTTP steering API under /__sandbox/ (same powers as `control`).
 */
import { Agent, fetch as undiciFetch } from "undici"
import { startSandbox, type Sandbox } from "../index"
import { call, ENDPOINT, saleFields } from "./raw"

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, processingMs: 5 })
})
afterAll(() => sb.close())
afterEach(() => sb.control.reset())

const steer = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${sb.origin}/__sandbox/${path}`, {
    method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as any }
}

describe("request faults", () => {
  it("response-lost: the transaction is created once, the reply never arrives; a retry gets the same order", async () => {
    sb.control.addFault({ kind: "response-lost", operation: "SALE", times: 1 })
    await expect(call(sb.url, "SALE", saleFields("lost-1"))).rejects.toThrow()
    expect(sb.control.transactions()).toHaveLength(1)
    const orderid = sb.control.transactions()[0].orderid
    const retry = await call(sb.url, "SALE", saleFields("lost-1"))
    expect(String(retry.body["paynet-order-id"])).toBe(orderid)
    expect(sb.control.transactions()).toHaveLength(1)
  })

  it("connection-reset: the socket is destroyed before processing, nothing is created", async () => {
    sb.control.addFault({ kind: "connection-reset", operation: "SALE", times: 1 })
    await expect(call(sb.url, "SALE", saleFields("reset-1"))).rejects.toThrow()
    expect(sb.control.transactions()).toHaveLength(0)
    expect((await call(sb.url, "SALE", saleFields("reset-1"))).status).toBe(200)
  })

  it("http-500 answers the gateway's error shape in both formats and creates nothing", async () => {
    sb.control.addFault({ kind: "http-500", operation: "SALE", times: 2 })
    const json = await call(sb.url, "SALE", saleFields("e500-1"))
    expect(json.status).toBe(500)
    expect(json.body).toMatchObject({ type: "error", "error-code": "5" })
    const legacy = await call(sb.url, "SALE", saleFields("e500-1"), { accept: null })
    expect(legacy.status).toBe(500)
    expect(legacy.body.type).toBe("error")
    expect(sb.control.transactions()).toHaveLength(0)
    expect(sb.control.faults()).toHaveLength(0)
  })

  it("targets only the named operation, and latency still answers", async () => {
    sb.control.addFault({ kind: "http-500", operation: "PREAUTH" })
    sb.control.addFault({ kind: "latency", ms: 30, times: 1 })
    expect((await call(sb.url, "SALE", saleFields("t-1"))).status).toBe(200)
    expect((await call(sb.url, "PREAUTH", saleFields("t-2"))).status).toBe(500)
    expect((await call(sb.url, "PREAUTH", saleFields("t-3"))).status).toBe(500) // standing rule
    expect(sb.control.faults().map((f) => f.kind)).toEqual(["http-500"])
  })

  it("refuses malformed fault rules", () => {
    expect(() => sb.control.addFault({ kind: "nope" } as never)).toThrow(/unknown fault kind/)
    expect(() => sb.control.addFault({ kind: "latency", ms: -1 })).toThrow()
    expect(() => sb.control.addFault({ kind: "http-500", times: 0 })).toThrow()
  })
})

describe("inspection", () => {
  it("counts TCP connections: keep-alive reuses one, fresh agents open new ones", async () => {
    sb.control.reset()
    const keepAlive = new Agent({ connections: 1 })
    const post = (agent: Agent, cid: string) =>
      undiciFetch(`${sb.url}/api/v2/sale/${ENDPOINT}`, {
        method: "POST", dispatcher: agent,
        headers: { accept: "application/vnd.pay+json", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(saleFields(cid)).toString(),
      }).then((r) => r.text())
    for (const cid of ["ka-1", "ka-2", "ka-3"]) await post(keepAlive, cid)
    expect(sb.control.connections()).toBe(1)
    for (const cid of ["nk-1", "nk-2"]) {
      const fresh = new Agent()
      await post(fresh, cid)
      await fresh.close()
    }
    expect(sb.control.connections()).toBe(3)
    await keepAlive.close()
    expect(sb.control.requests()).toEqual({ SALE: 5 })
  })

  it("lists transactions with history, by orderid and by client_orderid; reset forgets them", async () => {
    const r = await call(sb.url, "SALE", saleFields("insp-1"))
    const orderid = String(r.body["paynet-order-id"])
    const v = await sb.control.waitForOutcome(orderid)
    expect(v.history.map((h) => h.event)).toEqual(
      expect.arrayContaining(["SALE received on endpoint 1111", "sale processing", "sale approved"]),
    )
    expect(sb.control.byClientOrderId("insp-1").map((t) => t.orderid)).toEqual([orderid])
    sb.control.reset()
    expect(sb.control.transactions()).toEqual([])
    expect(sb.control.transaction(orderid)).toBeUndefined()
    expect(sb.control.connections()).toBe(0)
  })
})

describe("HTTP steering API", () => {
  it("offers the same powers over HTTP", async () => {
    expect((await steer("GET", "health")).json).toEqual({ ok: true })
    expect((await steer("POST", "faults", { kind: "http-500", operation: "STATUS", times: 1 })).json).toMatchObject({ id: expect.any(Number) })
    expect((await steer("GET", "faults")).json).toHaveLength(1)
    expect((await steer("DELETE", "faults")).json).toEqual({ ok: true })

    const slow = await startSandbox({ port: 0, processingMs: 60_000 })
    try {
      const r = await call(slow.url, "SALE", saleFields("http-1"))
      const orderid = String(r.body["paynet-order-id"])
      const base = `${slow.origin}/__sandbox`
      const list = (await (await fetch(`${base}/transactions?client_orderid=http-1`)).json()) as any[]
      expect(list.map((t) => t.orderid)).toEqual([orderid])
      const forced = await fetch(`${base}/transactions/${orderid}/force`, { method: "POST", body: JSON.stringify({ status: "approved" }) })
      expect(((await forced.json()) as any).status).toBe("approved")
      const settled = await fetch(`${base}/settle`, { method: "POST", body: JSON.stringify({ orderid }) })
      expect(await settled.json()).toEqual({ settled: [orderid] })
      const cb = await fetch(`${base}/transactions/${orderid}/chargeback`, { method: "POST", body: JSON.stringify({ amount: "1.00" }) })
      expect(((await cb.json()) as any).chargedBack).toBe("1.00")
      const rr = await fetch(`${base}/transactions/${orderid}/dispute`, { method: "POST", body: JSON.stringify({ kind: "retrieval_request", reason_code: "RR-7" }) })
      expect(((await rr.json()) as any).transactions.at(-1)).toMatchObject({ type: "retrieval_request", reasonCode: "RR-7" })
      const rev = await fetch(`${base}/transactions/${orderid}/chargeback_reversal`, { method: "POST", body: JSON.stringify({}) })
      expect(((await rev.json()) as any).chargedBack).toBe("0.00")
      const wrong = await fetch(`${base}/transactions/${orderid}/dispute`, { method: "POST", body: JSON.stringify({ kind: "nope" }) })
      expect(wrong.status).toBe(400)
      const bad = await fetch(`${base}/transactions/${orderid}/force`, { method: "POST", body: JSON.stringify({ status: "approved" }) })
      expect(bad.status).toBe(400)
      expect((await (await fetch(`${base}/transactions/999`)).json()) as any).toEqual({ error: "unknown orderid 999" })
      const stats = (await (await fetch(`${base}/stats`)).json()) as any
      expect(stats.requests).toEqual({ SALE: 1 })
      expect(stats.connections).toBeGreaterThanOrEqual(1)
      await fetch(`${base}/reset`, { method: "POST" })
      expect(slow.control.transactions()).toEqual([])
    } finally {
      await slow.close()
    }
  })
})

/**
 * The slow-processing fault: the gateway has the request and goes on processing it whether or not its client waits;
 * STATUS shows the new transaction only when the processing is over. Held requests are listed and finished through
 * control and /__sandbox/processing, so no test waits on the wall clock (the fault's `ms` is set far beyond any test).
 */
import { OPERATIONS } from "../../gateway/operations"
import { startSandbox, type Sandbox } from "../index"
import { call, ENDPOINT, followControl, KEY, LOGIN, saleFields, sha1 } from "./raw"

const FOREVER = 10 * 60_000

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, processingMs: 5 })
})
afterAll(() => sb.close())
afterEach(() => sb.control.reset())

const statusByCid = (cid: string) => call(sb.url, "STATUS", { login: LOGIN, client_orderid: cid, control: sha1(LOGIN + cid + KEY) })

const returnFields = (cid: string, orderid: string, amount: string) => ({
  login: LOGIN, client_orderid: cid, orderid, amount, currency: "EUR", control: followControl(cid, orderid, amount, "EUR"),
})

/** A request whose client gives up (aborts) once the gateway holds it. */
async function sendAndGiveUp(op: keyof typeof OPERATIONS, fields: Record<string, string>): Promise<void> {
  const ac = new AbortController()
  const sent = fetch(`${sb.url}${OPERATIONS[op].path}/${ENDPOINT}`, {
    method: "POST", signal: ac.signal,
    headers: { accept: "application/vnd.pay+json", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  })
  await until(() => sb.control.processing().length > 0)
  ac.abort()
  await expect(sent).rejects.toThrow()
  await until(() => sb.control.processing().every((h) => h.clientGone))
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((r) => setImmediate(r))
  if (!cond()) throw new Error("condition never held")
}

async function approvedSale(cid: string): Promise<string> {
  const r = await call(sb.url, "SALE", saleFields(cid))
  const orderid = String(r.body["paynet-order-id"])
  await sb.control.waitForOutcome(orderid)
  return orderid
}

describe("slow-processing", () => {
  it("a new order whose client gave up: STATUS finds nothing until the processing ends, then the order exists once", async () => {
    sb.control.addFault({ kind: "slow-processing", ms: FOREVER, operation: "SALE", times: 1 })
    await sendAndGiveUp("SALE", saleFields("slow-new"))
    expect(sb.control.processing()).toEqual([
      expect.objectContaining({ operation: "SALE", clientOrderId: "slow-new", clientGone: true }),
    ])
    expect(sb.control.transactions()).toHaveLength(0)
    const before = await statusByCid("slow-new")
    expect(before.status).toBe(400)

    expect(sb.control.finishProcessing()).toHaveLength(1)
    expect(sb.control.processing()).toEqual([])
    const [order] = sb.control.transactions()
    expect(order.clientOrderId).toBe("slow-new")
    await sb.control.waitForOutcome(order.orderid)
    expect((await statusByCid("slow-new")).body).toMatchObject({ status: "approved", "paynet-order-id": order.orderid })
    // the same request again is the same order (idempotent client_orderid), not a second one
    const again = await call(sb.url, "SALE", saleFields("slow-new"))
    expect(String(again.body["paynet-order-id"])).toBe(order.orderid)
    expect(sb.control.transactions()).toHaveLength(1)
  })

  it("a follow-up whose client gave up: STATUS shows the order's previous transaction until the processing ends", async () => {
    const orderid = await approvedSale("slow-ret")
    const saleSerial = (await statusByCid("slow-ret")).body["serial-number"]
    sb.control.addFault({ kind: "slow-processing", ms: FOREVER, operation: "RETURN" })
    await sendAndGiveUp("RETURN", returnFields("slow-ret", orderid, "10.42"))
    expect(sb.control.processing()).toEqual([expect.objectContaining({ operation: "RETURN", orderid })])

    const during = await statusByCid("slow-ret")
    expect(during.body).toMatchObject({ status: "approved", "transaction-type": "sale", "serial-number": saleSerial })
    expect(sb.control.transaction(orderid)?.returned).toBe("0.00")

    sb.control.finishProcessing()
    const view = await sb.control.waitForOutcome(orderid)
    expect(view).toMatchObject({ returned: "10.42", transactionType: "reversal", status: "approved" })
    expect((await statusByCid("slow-ret")).body["serial-number"]).not.toBe(saleSerial)
    expect(sb.control.requests().RETURN).toBe(1)
  })

  it("a client that waits gets the reply once the processing is finished", async () => {
    sb.control.addFault({ kind: "slow-processing", ms: FOREVER, operation: "SALE", times: 1 })
    const reply = call(sb.url, "SALE", saleFields("slow-wait"))
    await until(() => sb.control.processing().length === 1)
    expect(sb.control.processing()[0].clientGone).toBe(false)
    sb.control.finishProcessing(sb.control.processing()[0].id)
    const r = await reply
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ type: "async-response", "merchant-order-id": "slow-wait" })
  })

  it("ends by itself after ms", async () => {
    sb.control.addFault({ kind: "slow-processing", ms: 1, operation: "SALE", times: 1 })
    const r = await call(sb.url, "SALE", saleFields("slow-short"))
    expect(r.status).toBe(200)
    expect(sb.control.processing()).toEqual([])
  })

  it("refusals are answered at once, not held; reset drops held requests unprocessed", async () => {
    sb.control.addFault({ kind: "slow-processing", ms: FOREVER, operation: "SALE" })
    const bad = await call(sb.url, "SALE", saleFields("slow-bad", { control: "0".repeat(40) }))
    expect(bad.status).toBe(400)
    expect(sb.control.processing()).toEqual([])

    const held = call(sb.url, "SALE", saleFields("slow-reset"))
    await until(() => sb.control.processing().length === 1)
    sb.control.reset()
    await expect(held).rejects.toThrow()
    expect(sb.control.processing()).toEqual([])
    expect(sb.control.transactions()).toHaveLength(0)
  })

  it("is steered and inspected over HTTP under /__sandbox/processing", async () => {
    const steer = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${sb.origin}/__sandbox/${path}`, {
        method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: res.status, json: (await res.json()) as any }
    }
    expect((await steer("POST", "faults", { kind: "slow-processing", ms: FOREVER, operation: "SALE", times: 1 })).status).toBe(200)
    expect((await steer("POST", "faults", { kind: "slow-processing", ms: -1 })).status).toBe(400)
    await sendAndGiveUp("SALE", saleFields("slow-http"))
    const list = await steer("GET", "processing")
    expect(list.json).toEqual([expect.objectContaining({ operation: "SALE", clientOrderId: "slow-http", clientGone: true })])
    expect((await steer("POST", "processing/finish", { id: "x" })).status).toBe(400)
    expect((await steer("POST", "processing/finish", { id: list.json[0].id })).json).toEqual({ finished: [list.json[0].id] })
    expect((await steer("GET", "processing")).json).toEqual([])
    expect(sb.control.byClientOrderId("slow-http")).toHaveLength(1)
  })
})

/**
 * The faults issue 32 needs: `unreadable-200` (the request IS processed, then answered HTTP 200 with a reply no client
 * can read: garbage, truncated, or an HTML page under the wrong content type) and `status-foreign` (STATUS answered
 * with another order's data). Checked with raw HTTP in both reply formats and with the real gateway client.
 */
import { GatewayProtocolError, PaynetEasyClient } from "../../gateway"
import { parseGatewayBody } from "../../gateway/parse"
import { DEFAULT_SANDBOX_MERCHANT, startSandbox, type Sandbox } from "../index"
import { UNREADABLE_VARIANTS } from "../faults"
import { call, ENDPOINT, saleFields } from "./raw"
import { OPERATIONS } from "../../gateway/operations"

let sb: Sandbox
let client: PaynetEasyClient
beforeAll(async () => {
  sb = await startSandbox({ port: 0, processingMs: 5 })
  const M = DEFAULT_SANDBOX_MERCHANT
  client = new PaynetEasyClient({ baseUrl: sb.url, endpointId: ENDPOINT, login: M.login, controlKey: M.controlKey })
})
afterAll(async () => {
  await client.close()
  await sb.close()
})
afterEach(() => sb.control.reset())

async function rawSale(cid: string, accept: string | undefined) {
  const res = await fetch(`${sb.url}${OPERATIONS.SALE.path}/${ENDPOINT}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(accept ? { accept } : {}) },
    body: new URLSearchParams(saleFields(cid)).toString(),
  })
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", text: await res.text() }
}

describe("unreadable-200", () => {
  const cases = UNREADABLE_VARIANTS.flatMap((v) => [
    [v, "json", "application/vnd.pay+json"],
    [v, "legacy", undefined],
  ]) as Array<[string, string, string | undefined]>

  it.each(cases)("%s (%s format): HTTP 200, unreadable, yet processed once; a retry gets the same order", async (variant, _mode, accept) => {
    sb.control.addFault({ kind: "unreadable-200", variant: variant as any, operation: "SALE", times: 1 })
    const cid = `unreadable-${variant}-${_mode}`
    const res = await rawSale(cid, accept)
    expect(res.status).toBe(200)
    expect(() => parseGatewayBody(res.text)).toThrow(GatewayProtocolError)
    if (variant === "wrong-content-type") expect(res.contentType).toMatch(/^text\/html/)
    expect(sb.control.transactions()).toHaveLength(1)
    const orderid = sb.control.transactions()[0].orderid
    const retry = await call(sb.url, "SALE", saleFields(cid))
    expect(String(retry.body["paynet-order-id"])).toBe(orderid)
    expect(sb.control.transactions()).toHaveLength(1)
  })

  it("the real client reads each variant as a GatewayProtocolError (maybe sent), and STATUS then finds the order", async () => {
    for (const variant of UNREADABLE_VARIANTS) {
      sb.control.addFault({ kind: "unreadable-200", variant, operation: "SALE", times: 1 })
      const cid = `client-${variant}`
      const { control: _own, ...fields } = saleFields(cid) // the client computes its own control
      await expect(client.request("SALE", fields)).rejects.toBeInstanceOf(GatewayProtocolError)
      const status = await client.request("STATUS", { client_orderid: cid })
      expect(status["merchant-order-id"]).toBe(cid)
    }
    expect(sb.control.transactions()).toHaveLength(UNREADABLE_VARIANTS.length)
  })

  it("without an operation it spoils the next request of any operation (e.g. a CAPTURE, after processing it)", async () => {
    const sale = await call(sb.url, "PREAUTH", saleFields("any-op"))
    expect(sale.status).toBe(200)
    const orderid = String(sale.body["paynet-order-id"])
    // The preauth must be approved before it can be captured (the sandbox processes it for a few ms).
    const statusUntil = async (done: (r: Record<string, unknown>) => boolean) => {
      for (let i = 0; i < 200; i++) {
        const r = (await client.request("STATUS", { client_orderid: "any-op", orderid })) as Record<string, unknown>
        if (done(r)) return r
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      throw new Error("STATUS never reached the expected state")
    }
    await statusUntil((r) => r.status === "approved")
    sb.control.addFault({ kind: "unreadable-200", variant: "truncated", times: 1 })
    await expect(client.request("CAPTURE", { client_orderid: "any-op", orderid })).rejects.toBeInstanceOf(GatewayProtocolError)
    // The capture was processed although its reply was spoiled: STATUS shows it (once its processing ends).
    const after = await statusUntil((r) => r["transaction-type"] === "capture")
    expect(after["transaction-type"]).toBe("capture")
  })

  it("refuses an unknown variant", () => {
    expect(() => sb.control.addFault({ kind: "unreadable-200", variant: "nope" as any })).toThrow(/variant/)
  })
})

describe("status-foreign", () => {
  it("answers STATUS for one order with another order's data, then (times: 1) answers truthfully again", async () => {
    await call(sb.url, "SALE", saleFields("mine"))
    const theirs = await call(sb.url, "SALE", saleFields("theirs", { amount: "99.00" }))
    sb.control.addFault({ kind: "status-foreign", orderid: String(theirs.body["paynet-order-id"]), times: 1 })
    const wrong = await client.request("STATUS", { client_orderid: "mine" })
    expect(wrong).toMatchObject({ "merchant-order-id": "theirs", "paynet-order-id": String(theirs.body["paynet-order-id"]) })
    expect(wrong.amount).toMatch(/^99(\.00?)?$/)
    const right = await client.request("STATUS", { client_orderid: "mine" })
    expect(right["merchant-order-id"]).toBe("mine")
  })

  it("without an orderid it takes the newest order of another client_orderid", async () => {
    await call(sb.url, "SALE", saleFields("first"))
    await call(sb.url, "SALE", saleFields("second"))
    sb.control.addFault({ kind: "status-foreign", times: 1 })
    expect((await client.request("STATUS", { client_orderid: "second" }))["merchant-order-id"]).toBe("first")
  })

  it("applies to STATUS only", () => {
    expect(() => sb.control.addFault({ kind: "status-foreign", operation: "SALE" })).toThrow(/STATUS/)
  })
})

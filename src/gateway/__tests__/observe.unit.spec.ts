/**
 * The gateway client's observation seam (observe.ts), framework-free: what an observer is told about each request
 * (operation, URL, endpoint, the three ids; never another field's value), each attempt it runs, and how the request
 * ended (the reply's facts, or the error the caller gets). Against the sandbox over real HTTP.
 */
import { PaynetEasyClient } from "../client"
import type { GatewayObserver, GatewayRequestEnd, GatewayRequestInfo } from "../observe"
import { DEFAULT_SANDBOX_MERCHANT as M, startSandbox, type Sandbox } from "../../sandbox"

const SALE = {
  client_orderid: "payses_OBS1", order_desc: "seam", amount: "10.42", currency: "EUR", address1: "1 Main St", city: "Berlin",
  zip_code: "10115", country: "DE", phone: "+49301234567", email: "seam@example.com", ipaddress: "127.0.0.1",
  card_printed_name: "SEAM TEST", credit_card_number: "4444555566661111", expire_month: "12", expire_year: "2099", cvv2: "123",
  redirect_url: "http://127.0.0.1:9/return",
}

function recordingObserver() {
  const seen: Array<{ info: GatewayRequestInfo; attempts: number[]; end?: GatewayRequestEnd }> = []
  const observer: GatewayObserver = {
    request(info) {
      const entry = { info, attempts: [] as number[], end: undefined as GatewayRequestEnd | undefined }
      seen.push(entry)
      return {
        attempt: (n, send) => {
          entry.attempts.push(n)
          return send()
        },
        end: (result) => {
          entry.end = result
        },
      }
    },
  }
  return { observer, seen }
}

describe("the gateway client's observation seam", () => {
  let sandbox: Sandbox
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, processingMs: 0, logger: () => undefined })
  })
  afterAll(() => sandbox.close())
  afterEach(() => sandbox.control.reset())
  const config = () => ({ baseUrl: sandbox.url, endpointId: M.endpointIds[0], login: M.login, controlKey: M.controlKey })

  it("tells the observer the operation, where it goes and its ids, each attempt, and the reply's facts", async () => {
    const { observer, seen } = recordingObserver()
    const client = new PaynetEasyClient({ ...config(), observer })
    sandbox.control.addFault({ kind: "http-500", operation: "STATUS", times: 1 })
    const sale = await client.request("SALE", SALE)
    await client.request("STATUS", { client_orderid: "payses_OBS1", orderid: String(sale["paynet-order-id"]) })
    await client.close()
    expect(seen.map((s) => s.info)).toEqual([
      { operation: "SALE", movesMoney: true, url: `${sandbox.url}/api/v2/sale/${M.endpointIds[0]}`, endpoint: M.endpointIds[0], clientOrderId: "payses_OBS1", orderId: undefined, serialNumber: undefined },
      { operation: "STATUS", movesMoney: false, url: `${sandbox.url}/api/v2/status/${M.endpointIds[0]}`, endpoint: M.endpointIds[0], clientOrderId: "payses_OBS1", orderId: String(sale["paynet-order-id"]), serialNumber: undefined },
    ])
    expect(seen.map((s) => s.attempts)).toEqual([[1], [1, 2]])
    expect(seen[0].end).toMatchObject({ attempts: 1, reply: { httpStatus: 200, orderId: String(sale["paynet-order-id"]), clientOrderId: "payses_OBS1" } })
    expect(seen[1].end).toMatchObject({ attempts: 2, reply: { status: "approved" } })
    expect(JSON.stringify(seen)).not.toMatch(/4444555566661111|seam@example\.com|SEAM TEST/)
  })

  it("a money-moving request is attempted once; the observer gets the error the caller gets", async () => {
    const { observer, seen } = recordingObserver()
    const client = new PaynetEasyClient({ ...config(), observer })
    sandbox.control.addFault({ kind: "response-lost", operation: "SALE", times: 1 })
    const thrown = await client.request("SALE", SALE).then(() => undefined, (e) => e)
    await client.close()
    expect(thrown).toBeDefined()
    expect(seen[0].attempts).toEqual([1])
    expect(seen[0].end).toEqual({ attempts: 1, error: thrown })
  })

  it("an observer that answers undefined records nothing and changes nothing", async () => {
    const client = new PaynetEasyClient({ ...config(), observer: { request: () => undefined } })
    const sale = await client.request("SALE", SALE)
    await client.close()
    expect(sale["paynet-order-id"]).toBeDefined()
  })
})

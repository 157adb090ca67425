/**
 * Transaction rules: CVV2 outcomes, processing → final status, idempotent client_orderid, and the capture / void /
 * return rules of the seed (1–6) with partial amounts and refusals of over-capture and over-return.
 */
import { startSandbox, type Sandbox } from "../index"
import { call, followControl, LOGIN, saleFields, sha1, KEY } from "./raw"

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, processingMs: 10 })
})
afterAll(() => sb.close())
afterEach(() => sb.control.reset())

async function pay(cid: string, op: "SALE" | "PREAUTH" = "SALE", over: Record<string, string> = {}) {
  const r = await call(sb.url, op, saleFields(cid, over))
  expect(r.status).toBe(200)
  const orderid = String(r.body["paynet-order-id"])
  const view = await sb.control.waitForOutcome(orderid)
  return { orderid, view }
}

const status = (cid: string, orderid: string) =>
  call(sb.url, "STATUS", { login: LOGIN, client_orderid: cid, orderid, control: followControl(cid, orderid) })

const followUp = (op: "CAPTURE" | "RETURN" | "VOID", cid: string, orderid: string, amount?: string) => {
  const f: Record<string, string> = { login: LOGIN, client_orderid: cid, orderid }
  if (amount && op !== "VOID") Object.assign(f, { amount, currency: "EUR" })
  f.control = op === "VOID" ? followControl(cid, orderid) : followControl(cid, orderid, amount, amount ? "EUR" : undefined)
  return call(sb.url, op, f)
}

import { disputeWireType } from "../../gateway/disputes"
import { DEFAULT_REASON_CODES } from "../engine"

describe("CVV2 outcomes (notes §11)", () => {
  it.each([
    ["123", "approved", undefined],
    ["1234", "approved", undefined],
    ["111", "approved", undefined],
    ["217", "unknown", "217"],
    ["101", "declined", "101"],
    ["116", "declined", "116"],
    ["119", "declined", "119"],
    ["209", "declined", "209"],
    ["555", "declined", "100"],
  ])("CVV2 %s ends %s", async (cvv2, expected, code) => {
    const cid = `cvv-${cvv2}`
    const { orderid } = await pay(cid, "SALE", { cvv2 })
    const r = await status(cid, orderid)
    expect(r.body.status).toBe(expected)
    expect(r.body["error-code"]).toBe(code)
    // a reason exactly when there is an error code
    expect(r.body["error-message"]).toEqual(code === undefined ? undefined : expect.stringMatching(/\w/))
  })

  it("CVV2 321 stays processing with html and redirect-to to the ACS page", async () => {
    const { orderid } = await pay("cvv-321", "SALE", { cvv2: "321" })
    const r = await status("cvv-321", orderid)
    expect(r.body).toMatchObject({ status: "processing", "order-stage": "sale_3d_validating" })
    expect(r.body["redirect-to"]).toMatch(new RegExp(`^${sb.url}/acs/[0-9a-f]+$`))
    expect(r.body.html).toContain(String(r.body["redirect-to"]))
  })

  it("never keeps the PAN or CVV2 in inspection output", async () => {
    await pay("no-pan", "SALE", { cvv2: "1234" })
    const dump = JSON.stringify(sb.control.transactions())
    expect(dump).not.toContain("4444555566661111")
    expect(dump).not.toContain("1234\"")
    expect(sb.control.transactions()[0].card).toMatchObject({ bin: "444455", lastFour: "1111", brand: "VISA", behaviour: "approve" })
  })
})

describe("processing window", () => {
  it("reports processing until processingMs passes, then the final status with card fields", async () => {
    const slow = await startSandbox({ port: 0, processingMs: 60_000 })
    try {
      const r = await call(slow.url, "SALE", saleFields("slow-1"))
      const orderid = String(r.body["paynet-order-id"])
      const s1 = await call(slow.url, "STATUS", { login: LOGIN, client_orderid: "slow-1", orderid, control: followControl("slow-1", orderid) })
      expect(s1.body).toMatchObject({ status: "processing", "transaction-type": "sale" })
      expect(typeof s1.body["paynet-order-id"]).toBe("string")
      slow.control.forceStatus(orderid, "approved")
      const s2 = await call(slow.url, "STATUS", { login: LOGIN, client_orderid: "slow-1", orderid, control: followControl("slow-1", orderid) })
      expect(s2.body).toMatchObject({
        status: "approved", amount: "10.42", currency: "EUR", "last-four-digits": "1111", bin: "444455", "card-type": "VISA",
        "cardholder-name": "JOHN DOE", "processor-tx-id": `PNTEST-${orderid}`,
      })
    } finally {
      await slow.close()
    }
  })

  it("finds the order by client_orderid alone", async () => {
    const { orderid } = await pay("by-cid")
    const r = await call(sb.url, "STATUS", { login: LOGIN, client_orderid: "by-cid", control: sha1(LOGIN + "by-cid" + KEY) })
    expect(r.body).toMatchObject({ status: "approved", "paynet-order-id": orderid })
  })

  it("refuses a status whose client_orderid does not match the orderid", async () => {
    const { orderid } = await pay("match-1")
    const r = await status("other-cid", orderid)
    expect(r.status).toBe(400)
    expect(r.body["error-message"]).toMatch(/does not match/)
  })
})

describe("idempotent client_orderid", () => {
  it("returns the same orderid for the same request and refuses a different one", async () => {
    const a = await call(sb.url, "SALE", saleFields("idem-1"))
    const b = await call(sb.url, "SALE", saleFields("idem-1"))
    expect(b.body["paynet-order-id"]).toBe(a.body["paynet-order-id"])
    expect(sb.control.transactions()).toHaveLength(1)
    const c = await call(sb.url, "SALE", saleFields("idem-1", { amount: "11.00" }))
    expect(c.status).toBe(400)
    expect(c.body["error-message"]).toMatch(/already used/)
    expect(sb.control.transactions()).toHaveLength(1)
  })

  it("keeps client_orderid namespaces per endpoint", async () => {
    const other = await startSandbox({
      port: 0, processingMs: 10,
      merchants: [{ login: LOGIN, controlKey: KEY, endpointIds: ["1111", "3333"] }],
    })
    try {
      const a = await call(other.url, "SALE", saleFields("ns-1"))
      const b = await call(other.url, "SALE", saleFields("ns-1", { control: sha1("3333" + "ns-1" + "1042" + "payer@example.com" + KEY) }), { endpoint: "3333" })
      expect(a.status).toBe(200)
      expect(b.status).toBe(200)
      expect(b.body["paynet-order-id"]).not.toBe(a.body["paynet-order-id"])
    } finally {
      await other.close()
    }
  })
})

describe("capture (seed rule 1)", () => {
  it("captures partially, several times, never more than authorized", async () => {
    const { orderid } = await pay("cap-1", "PREAUTH")
    expect((await followUp("CAPTURE", "cap-1", orderid, "4.00")).status).toBe(200)
    await sb.control.waitForOutcome(orderid)
    expect((await followUp("CAPTURE", "cap-1", orderid, "6.43")).body["error-message"]).toMatch(/exceeds/)
    expect((await followUp("CAPTURE", "cap-1", orderid, "6.42")).status).toBe(200)
    const v = await sb.control.waitForOutcome(orderid)
    expect(v).toMatchObject({ captured: "10.42", status: "approved", transactionType: "capture" })
    const again = await followUp("CAPTURE", "cap-1", orderid, "0.01")
    expect(again.body["error-message"]).toMatch(/Nothing left/)
  })

  it("captures the whole authorization when no amount is sent", async () => {
    const { orderid } = await pay("cap-2", "PREAUTH")
    await followUp("CAPTURE", "cap-2", orderid)
    expect((await sb.control.waitForOutcome(orderid)).captured).toBe("10.42")
  })

  it("refuses capture on a sale, on a declined preauth, and while another transaction is processing", async () => {
    const sale = await pay("cap-3")
    expect((await followUp("CAPTURE", "cap-3", sale.orderid)).body["error-message"]).toMatch(/only on a preauth/)
    const declined = await pay("cap-4", "PREAUTH", { cvv2: "116" })
    expect((await followUp("CAPTURE", "cap-4", declined.orderid)).body["error-message"]).toMatch(/approved preauth/)
    const ok = await pay("cap-5", "PREAUTH")
    // The first capture is held in processing (steered), not just slower than the next request: a loaded machine
    // could otherwise let its 10 ms pass before the second capture arrives.
    sb.control.addFault({ kind: "outcome", status: "processing", operation: "CAPTURE", times: 1 })
    expect((await followUp("CAPTURE", "cap-5", ok.orderid, "1.00")).status).toBe(200)
    expect((await followUp("CAPTURE", "cap-5", ok.orderid, "1.00")).body["error-message"]).toMatch(/still processing/)
  })

  it("refuses a capture control signed without the amount that was sent", async () => {
    const { orderid } = await pay("cap-6", "PREAUTH")
    const r = await call(sb.url, "CAPTURE", {
      login: LOGIN, client_orderid: "cap-6", orderid, amount: "1.00", currency: "EUR", control: followControl("cap-6", orderid),
    })
    expect(r.body["error-message"]).toMatch(/control/)
  })
})

describe("void (seed rule 6)", () => {
  it("voids an approved unsettled sale and reports amount 0", async () => {
    const { orderid } = await pay("void-1")
    expect((await followUp("VOID", "void-1", orderid)).status).toBe(200)
    const v = await sb.control.waitForOutcome(orderid)
    expect(v).toMatchObject({ voided: true, amount: "0.00", transactionType: "void", status: "approved" })
    expect((await followUp("VOID", "void-1", orderid)).body["error-message"]).toMatch(/already voided/)
  })

  it("refuses a void with an amount", async () => {
    const { orderid } = await pay("void-2")
    const r = await call(sb.url, "VOID", {
      login: LOGIN, client_orderid: "void-2", orderid, amount: "1.00", currency: "EUR", control: followControl("void-2", orderid),
    })
    expect(r.status).toBe(400)
    expect(r.body["error-message"]).toMatch(/does not accept an amount/)
  })

  it("refuses a void after settlement (control.settle)", async () => {
    const { orderid } = await pay("void-3")
    expect(sb.control.settle(orderid)).toEqual([orderid])
    expect((await followUp("VOID", "void-3", orderid)).body["error-message"]).toMatch(/settled/)
  })

  it("settles automatically after settleAfterMs", async () => {
    const auto = await startSandbox({ port: 0, processingMs: 5, settleAfterMs: 5 })
    try {
      const r = await call(auto.url, "SALE", saleFields("auto-1"))
      const orderid = String(r.body["paynet-order-id"])
      for (let i = 0; i < 200 && !auto.control.transaction(orderid)?.settled; i++) await new Promise((x) => setTimeout(x, 10))
      expect(auto.control.transaction(orderid)?.settled).toBe(true)
    } finally {
      await auto.close()
    }
  })

  it("refuses a void on a declined sale", async () => {
    const { orderid } = await pay("void-4", "SALE", { cvv2: "101" })
    expect((await followUp("VOID", "void-4", orderid)).body["error-message"]).toMatch(/authorized/)
  })
})

describe("return (seed rules 2–5)", () => {
  it("returns partially, then the rest, never more than remains; status amount follows", async () => {
    const { orderid } = await pay("ret-1")
    expect((await followUp("RETURN", "ret-1", orderid, "2.42")).status).toBe(200)
    await sb.control.waitForOutcome(orderid)
    expect((await status("ret-1", orderid)).body).toMatchObject({ "transaction-type": "reversal", status: "approved", amount: "8.00", "initial-amount": "10.42" })
    expect((await followUp("RETURN", "ret-1", orderid, "8.01")).body["error-message"]).toMatch(/exceeds/)
    expect((await followUp("RETURN", "ret-1", orderid)).status).toBe(200)
    expect((await sb.control.waitForOutcome(orderid)).returned).toBe("10.42")
    expect((await followUp("RETURN", "ret-1", orderid, "0.01")).body["error-message"]).toMatch(/Nothing left/)
  })

  it("on an uncaptured preauth releases the hold", async () => {
    const { orderid } = await pay("ret-2", "PREAUTH")
    await followUp("RETURN", "ret-2", orderid)
    const v = await sb.control.waitForOutcome(orderid)
    expect(v).toMatchObject({ released: "10.42", returned: "0.00", amount: "0.00" })
    expect((await followUp("CAPTURE", "ret-2", orderid)).body["error-message"]).toMatch(/Nothing left/)
  })

  it("on a captured preauth refunds at most the captured amount", async () => {
    const { orderid } = await pay("ret-3", "PREAUTH")
    await followUp("CAPTURE", "ret-3", orderid, "5.00")
    await sb.control.waitForOutcome(orderid)
    expect((await followUp("RETURN", "ret-3", orderid, "5.01")).body["error-message"]).toMatch(/exceeds/)
    await followUp("RETURN", "ret-3", orderid, "5.00")
    expect((await sb.control.waitForOutcome(orderid)).returned).toBe("5.00")
  })

  it("is refused unless the transaction ended successfully", async () => {
    const declined = await pay("ret-4", "SALE", { cvv2: "209" })
    expect((await followUp("RETURN", "ret-4", declined.orderid)).body["error-message"]).toMatch(/final successful/)
    const unknown = await pay("ret-5", "SALE", { cvv2: "217" })
    expect((await followUp("RETURN", "ret-5", unknown.orderid)).status).toBe(400)
  })

  it("refuses an amount in another currency", async () => {
    const { orderid } = await pay("ret-6")
    const r = await call(sb.url, "RETURN", {
      login: LOGIN, client_orderid: "ret-6", orderid, amount: "1.00", currency: "USD", control: followControl("ret-6", orderid, "1.00", "USD"),
    })
    expect(r.body["error-message"]).toMatch(/currency/)
  })
})

describe("steering", () => {
  it("injects a chargeback that reduces the captured amount", async () => {
    const { orderid } = await pay("cb-1")
    const v = sb.control.chargeback(orderid, "3.00")
    expect(v).toMatchObject({ chargedBack: "3.00", amount: "7.42", transactionType: "chargeback", status: "approved" })
    expect((await followUp("RETURN", "cb-1", orderid, "7.43")).body["error-message"]).toMatch(/exceeds/)
  })

  // issue 51: every dispute kind, with its money, reason code and date (STATUS by serial) — sale of 10.42
  it.each([
    ["chargeback", "3.00", { chargedBack: "3.00", amount: "7.42" }],
    ["second_chargeback", "3.00", { chargedBack: "3.00", amount: "7.42" }],
    ["retrieval_request", "3.00", { chargedBack: "0.00", amount: "10.42" }],
    ["fraud_marker", undefined, { chargedBack: "0.00", amount: "10.42" }],
  ] as const)("injects a %s: its money, its reason code and date in STATUS by serial", async (kind, amount, money) => {
    const cid = `disp-${kind}`
    const { orderid } = await pay(cid)
    const v = sb.control.dispute(orderid, kind, { amount, reasonCode: "RC-9" })
    const tx = v.transactions[v.transactions.length - 1]
    expect(v).toMatchObject({ ...money, status: "approved" })
    expect(tx).toMatchObject({ type: disputeWireType(kind), status: "approved", amount: amount ?? "10.42", reasonCode: "RC-9" })
    const r = await call(sb.url, "STATUS", { login: LOGIN, client_orderid: cid, orderid, "by-request-sn": tx.serial, control: followControl(cid, orderid) })
    expect(r.body).toMatchObject({ "transaction-type": disputeWireType(kind), status: "approved", amount: amount ?? "10.42", "reason-code": "RC-9" })
    expect(Date.parse(String(r.body["paynet-processing-date"]))).toBeGreaterThan(0)
  })

  it("a chargeback reversal gives charged-back money back; none to reverse is refused; defaults take all and a reason code per kind", async () => {
    const { orderid } = await pay("disp-rev")
    expect(() => sb.control.dispute(orderid, "chargeback_reversal")).toThrow(/no charged-back money/)
    sb.control.dispute(orderid, "chargeback", { amount: "4.00" })
    const back = sb.control.dispute(orderid, "chargeback_reversal")
    expect(back).toMatchObject({ chargedBack: "0.00", amount: "10.42", transactionType: "chargeback_reversal" })
    expect(back.transactions.at(-1)).toMatchObject({ amount: "4.00", reasonCode: DEFAULT_REASON_CODES.chargeback_reversal })
    const second = sb.control.dispute(orderid, "second_chargeback")
    expect(second).toMatchObject({ chargedBack: "10.42", amount: "0.00" })
    expect(() => sb.control.dispute(orderid, "chargeback")).toThrow(/no captured money/)
    expect(() => sb.control.dispute(orderid, "nonsense" as never)).toThrow(/kind must be one of/)
  })

  it("forces a final status only on a processing or unknown transaction", async () => {
    const { orderid } = await pay("force-1", "SALE", { cvv2: "217" })
    expect(sb.control.forceStatus(orderid, "declined", "Steered").status).toBe("declined")
    expect(() => sb.control.forceStatus(orderid, "approved")).toThrow(/not processing/)
  })

  it("steers the outcome of the next transaction of an operation (outcome rule)", async () => {
    sb.control.addFault({ kind: "outcome", operation: "SALE", status: "filtered", times: 1 })
    const a = await pay("steer-1")
    const b = await pay("steer-2")
    expect(a.view.status).toBe("filtered")
    expect(b.view.status).toBe("approved")
  })
})

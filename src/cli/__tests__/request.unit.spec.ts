/**
 * `request` against the real sandbox over HTTP (startSandbox on port 0): control-signed and OAuth (HMAC-SHA1,
 * RSA-SHA256) operations succeed; refusals happen before anything is sent (the sandbox's counters prove it);
 * nothing printed contains the control key, the private key, the PAN or the CVV.
 */
import { generateKeyPairSync } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { DEFAULT_SANDBOX_MERCHANT, startSandbox, type Sandbox } from "../../sandbox"
import { runCli, type RunResult } from "./capture"

const PAN = "4111111111111111"
const CVV = "123"
const KEY = DEFAULT_SANDBOX_MERCHANT.controlKey

let sandbox: Sandbox
let tmp: string
let goodKeyPath: string
let goodKeyPem: string
let weakKeyPath: string

function keyPair(bits: number) {
  return generateKeyPairSync("rsa", {
    modulusLength: bits,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  })
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pne-cli-request-"))
  const good = keyPair(2048)
  goodKeyPem = good.privateKey
  goodKeyPath = path.join(tmp, "good.pem")
  fs.writeFileSync(goodKeyPath, good.privateKey, { mode: 0o600 })
  weakKeyPath = path.join(tmp, "weak.pem")
  fs.writeFileSync(weakKeyPath, keyPair(1024).privateKey, { mode: 0o600 })
  sandbox = await startSandbox({
    port: 0,
    processingMs: 20,
    merchants: [{ ...DEFAULT_SANDBOX_MERCHANT, endpointIds: ["1111"], endpointGroupIds: ["2222"], publicKeyPem: good.publicKey }],
  })
})

afterAll(async () => {
  await sandbox?.close()
  fs.rmSync(tmp, { recursive: true, force: true })
})

beforeEach(() => sandbox.control.reset())

const creds = () => ["--base-url", sandbox.url, "--endpoint-id", "1111", "--login", DEFAULT_SANDBOX_MERCHANT.login, "--control-key", KEY]

let seq = 0
// No long digit runs: scrub() masks any 13-19 digit run as a possible card number (on purpose).
const orderId = () => `cli-test-${Math.random().toString(36).slice(2, 8)}-${++seq}`

function saleFields(clientOrderId: string, extra: string[] = []) {
  return [
    `client_orderid=${clientOrderId}`, "order_desc=CLI test", "amount=10.42", "currency=EUR", "address1=1 Test St",
    "city=Berlin", "zip_code=10115", "country=DE", "phone=+49301234567", "email=shopper@example.com",
    "ipaddress=127.0.0.1", "card_printed_name=TEST SHOPPER", `credit_card_number=${PAN}`, "expire_month=12",
    "expire_year=2030", `cvv2=${CVV}`, "redirect_url=http://127.0.0.1:9/return", ...extra,
  ]
}

/** Nothing a user sees may contain a secret or card data. */
function expectClean(...results: RunResult[]) {
  for (const r of results) {
    const all = r.stdout + r.stderr
    expect(all).not.toContain(KEY)
    expect(all).not.toContain(PAN)
    expect(all).not.toMatch(/cvv2["=:\s]+"?123\b/)
    expect(all).not.toContain("PRIVATE KEY")
    expect(all).not.toContain(goodKeyPem.split("\n")[1])
  }
}

const sent = () => Object.values(sandbox.control.requests()).reduce((a, b) => a + b, 0)

describe("medusa-payneteasy request (against the sandbox)", () => {
  it("sends a SALE (control checksum), prints the parsed reply, and STATUS then reports it", async () => {
    const id = orderId()
    const sale = await runCli(["request", "sale", ...creds(), ...saleFields(id)])
    expect(sale.stderr).toBe("")
    expect(sale.code).toBe(0)
    const reply = JSON.parse(sale.stdout)
    expect(reply.type).toBe("async-response")
    expect(reply["merchant-order-id"]).toBe(id)
    expect(reply["paynet-order-id"]).toMatch(/^\d+$/)
    expect(sandbox.control.requests().SALE).toBe(1)
    const orderid = reply["paynet-order-id"]
    await sandbox.control.waitForOutcome(orderid, 5000)

    const status = await runCli(["request", "STATUS", ...creds(), `client_orderid=${id}`, `orderid=${orderid}`])
    expect(status.code).toBe(0)
    const st = JSON.parse(status.stdout)
    expect(st.status).toBe("approved")
    expect(st["paynet-order-id"]).toBe(orderid)
    expectClean(sale, status)
  })

  it("takes credentials from PAYNETEASY_* environment variables", async () => {
    const env = {
      PAYNETEASY_BASE_URL: sandbox.url,
      PAYNETEASY_ENDPOINT_ID: "1111",
      PAYNETEASY_LOGIN: DEFAULT_SANDBOX_MERCHANT.login,
      PAYNETEASY_CONTROL_KEY: KEY,
    }
    const res = await runCli(["request", "Sale", ...saleFields(orderId())], env)
    expect(res.code).toBe(0)
    expect(sandbox.control.requests().SALE).toBe(1)
    expectClean(res)
  })

  it("uses the endpoint group URL with --endpoint-group-id", async () => {
    const res = await runCli([
      "request", "sale", "--base-url", sandbox.url, "--endpoint-group-id", "2222", "--login", DEFAULT_SANDBOX_MERCHANT.login,
      "--control-key", KEY, ...saleFields(orderId()),
    ])
    expect(res.code).toBe(0)
    const [txn] = sandbox.control.transactions()
    expect(txn.endpointKey).toBe("group:2222")
  })

  it("sends an HMAC-SHA1 OAuth operation (PAYOUT)", async () => {
    const res = await runCli([
      "request", "payout", ...creds(), `client_orderid=${orderId()}`, "amount=5.00", "currency=EUR",
      `credit_card_number=${PAN}`, "card_printed_name=TEST PAYEE", "expire_month=12", "expire_year=2030",
    ])
    expect(res.stderr).toBe("")
    expect(res.code).toBe(0)
    expect(JSON.parse(res.stdout).type).toBe("async-response")
    expect(sandbox.control.requests().PAYOUT).toBe(1)
    expectClean(res)
  })

  it("sends an RSA-SHA256 OAuth operation (CARDREF_V4) with --private-key", async () => {
    const id = orderId()
    const sale = await runCli(["request", "sale", ...creds(), ...saleFields(id)])
    const orderid = JSON.parse(sale.stdout)["paynet-order-id"]
    await sandbox.control.waitForOutcome(orderid, 5000)
    const res = await runCli([
      "request", "cardref_v4", ...creds(), "--private-key", goodKeyPath, `client_orderid=${id}`, `orderid=${orderid}`,
    ])
    expect(res.stderr).toBe("")
    expect(res.code).toBe(0)
    expect(JSON.stringify(JSON.parse(res.stdout))).toMatch(/card-ref-id|cardrefid/i)
    expect(sandbox.control.requests().CARDREF_V4).toBe(1)
    expectClean(sale, res)
  })

  it("--verbose prints the request fields scrubbed (PAN and CVV redacted)", async () => {
    const res = await runCli(["request", "sale", "--verbose", ...creds(), ...saleFields(orderId())])
    expect(res.code).toBe(0)
    expect(res.stderr).toContain("> SALE /api/v2/sale")
    expect(res.stderr).toContain('"credit_card_number":"[redacted]"')
    expect(res.stderr).toContain('"cvv2":"[redacted]"')
    expect(res.stderr).toContain('"amount":"10.42"')
    expectClean(res)
  })

  it("reports a gateway refusal (wrong control key) on stderr with exit 1, without echoing the key", async () => {
    const wrongKey = "WRONG-CONTROL-KEY-0000-1111"
    const res = await runCli([
      "request", "sale", "--base-url", sandbox.url, "--endpoint-id", "1111", "--login", DEFAULT_SANDBOX_MERCHANT.login,
      "--control-key", wrongKey, ...saleFields(orderId()),
    ])
    expect(res.code).toBe(1)
    expect(res.stdout).toBe("")
    expect(res.stderr).toMatch(/^error: /)
    expect(res.stderr).not.toContain(wrongKey)
    expect(sandbox.control.requests().SALE).toBe(1)
    expectClean(res)
  })

  it("--timeout: a SALE whose reply is slower than the timeout fails with exit 1 and the ask-STATUS note", async () => {
    sandbox.control.addFault({ kind: "latency", ms: 1500, operation: "SALE", times: 1 })
    const res = await runCli(["request", "sale", ...creds(), "--timeout", "300", ...saleFields(orderId())])
    expect(res.code).toBe(1)
    expect(res.stdout).toBe("")
    expect(res.stderr).toMatch(/^error: GatewayTransportError/)
    // A money-moving request that may have arrived: the user is told not to re-send blindly.
    expect(res.stderr).toMatch(/ask STATUS before sending it again/)
    expect(sandbox.control.requests().SALE).toBe(1)
    expectClean(res)
  })

  describe("refusals: nothing reaches the sandbox", () => {
    afterEach(() => {
      expect(sent()).toBe(0)
      expect(sandbox.control.connections()).toBe(0)
    })

    it("unknown operation", async () => {
      const res = await runCli(["request", "refund-everything", ...creds(), "amount=1"])
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(/unknown operation "refund-everything"/)
      expect(res.stderr).toContain("SALE")
    })

    it("JPY 10.5 (JPY has no minor unit)", async () => {
      const res = await runCli(["request", "sale", ...creds(), ...saleFields(orderId()).map((f) =>
        f.startsWith("amount=") ? "amount=10.5" : f.startsWith("currency=") ? "currency=JPY" : f)])
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(/field amount/)
      expectClean(res)
    })

    it("KWD 1.2345 (KWD has three decimals)", async () => {
      const res = await runCli(["request", "sale", ...creds(), ...saleFields(orderId()).map((f) =>
        f.startsWith("amount=") ? "amount=1.2345" : f.startsWith("currency=") ? "currency=KWD" : f)])
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(/field amount/)
      expectClean(res)
    })

    it("a 1024-bit private key for an RSA-SHA256 operation", async () => {
      const res = await runCli(["request", "CARDREF_V4", ...creds(), "--private-key", weakKeyPath, "client_orderid=x", "orderid=1"])
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(/1024-bit RSA key.*at least 2048/)
      expectClean(res)
    })

    it("an RSA-SHA256 operation without a private key", async () => {
      const res = await runCli(["request", "cardref_v4", ...creds(), "client_orderid=x", "orderid=1"])
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(/--private-key/)
    })

    it("--signature on a control-signed operation, and a missing required field", async () => {
      const sig = await runCli(["request", "status", ...creds(), "--signature", "HMAC-SHA1", "client_orderid=x"])
      expect(sig.code).toBe(2)
      expect(sig.stderr).toMatch(/control checksum, not OAuth/)
      const missing = await runCli(["request", "sale", ...creds(), ...saleFields(orderId()).filter((f) => !f.startsWith("email="))])
      expect(missing.code).toBe(2)
      expect(missing.stderr).toMatch(/field email/)
      expectClean(sig, missing)
    })

    it("missing credentials and malformed fields", async () => {
      const noCreds = await runCli(["request", "status", "client_orderid=x"])
      expect(noCreds.code).toBe(2)
      expect(noCreds.stderr).toMatch(/--base-url.*--control-key/)
      const badField = await runCli(["request", "status", ...creds(), "client_orderid"])
      expect(badField.code).toBe(2)
      expect(badField.stderr).toMatch(/expected field=value/)
      const badTimeout = await runCli(["request", "status", ...creds(), "--timeout", "soon", "client_orderid=x"])
      expect(badTimeout.code).toBe(2)
      expect(badTimeout.stderr).toMatch(/--timeout must be a whole number/)
    })
  })
})

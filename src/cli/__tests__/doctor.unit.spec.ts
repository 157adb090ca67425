/**
 * `doctor` against the real sandbox over HTTP: good credentials → exit 0 "work"; a wrong control key, login or
 * endpoint → exit 1 naming the culprit; nothing listening → "could not reach"; a web server that is not a gateway →
 * "not like a PaynetEasy gateway". Nothing printed contains the control key. The sandbox's request log proves the
 * check is one STATUS and moves no money.
 */
import http from "node:http"
import type { AddressInfo } from "node:net"
import { DEFAULT_SANDBOX_MERCHANT, startSandbox, type Sandbox } from "../../sandbox"
import { maskLogin } from "../../gateway/doctor"
import { runCli } from "./capture"

const M = DEFAULT_SANDBOX_MERCHANT
let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingMs: 20 })
})
afterAll(async () => {
  await sandbox?.close()
})

const args = (over: Record<string, string> = {}) => {
  const o = { "--base-url": sandbox.url, "--endpoint-id": M.endpointIds[0], "--login": M.login, "--control-key": M.controlKey, ...over }
  return ["doctor", ...Object.entries(o).flat()]
}

it("good credentials: exit 0, says they work, shows the login masked and never the key", async () => {
  const before = sandbox.control.transactions().length
  const requestsBefore = sandbox.control.requests()
  const res = await runCli(args())
  expect(res.code).toBe(0)
  expect(res.stdout).toMatch(/^OK \(ok, \d+ ms\): The credentials work/m)
  expect(res.stdout).toContain(`login:     ${maskLogin(M.login)}`)
  expect(res.stdout).not.toContain(M.login)
  expect(res.stdout).toContain("RSA key:   not loaded")
  expect(res.stdout + res.stderr).not.toContain(M.controlKey)
  expect(sandbox.control.transactions().length).toBe(before) // nothing created at the gateway
  const after = sandbox.control.requests()
  expect(Object.keys(after).filter((op) => after[op] !== (requestsBefore[op] ?? 0))).toEqual(["STATUS"]) // one read, no money
  expect(after.STATUS - (requestsBefore.STATUS ?? 0)).toBe(1)
})

it.each([
  ["a wrong control key", { "--control-key": "00000000-0000-0000-0000-000000000000" }, /control key/],
  ["a wrong login", { "--login": "somebody-else" }, /login/],
  ["an unknown endpoint", { "--endpoint-id": "9999" }, /endpoint/],
])("%s: exit 1, says the credentials do not work and names it", async (_what, over, named) => {
  const res = await runCli(args(over))
  expect(res.code).toBe(1)
  expect(res.stdout).toMatch(/^FAILED \(wrong_credentials, \d+ ms\)/m)
  expect(res.stdout.split("\n").find((l) => l.startsWith("FAILED"))).toMatch(named)
  expect(res.stdout + res.stderr).not.toContain(M.controlKey)
})

it("nothing listening: exit 1, could not reach", async () => {
  const res = await runCli(args({ "--base-url": "http://127.0.0.1:9/paynet", "--timeout": "2000" }))
  expect(res.code).toBe(1)
  expect(res.stdout).toMatch(/FAILED \(unreachable, \d+ ms\): Could not reach the gateway at http:\/\/127\.0\.0\.1:9\/paynet/)
})

it("a web server that is not a gateway: exit 1, check baseUrl", async () => {
  const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>hello</html>"))
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  try {
    const { port } = server.address() as AddressInfo
    const res = await runCli(args({ "--base-url": `http://127.0.0.1:${port}/paynet` }))
    expect(res.code).toBe(1)
    expect(res.stdout).toMatch(/FAILED \(not_a_gateway, \d+ ms\): .*check baseUrl/)
  } finally {
    await new Promise((r) => server.close(r))
  }
})

it("--json prints the same verdict as JSON; missing credentials are a usage error (exit 2)", async () => {
  const res = await runCli([...args(), "--json"])
  expect(res.code).toBe(0)
  const out = JSON.parse(res.stdout)
  expect(out).toMatchObject({ base_url: sandbox.url, endpoint: { kind: "endpoint", id: "1111" }, rsa_key_loaded: false, check: { ok: true, verdict: "ok" } })
  const missing = await runCli(["doctor", "--base-url", sandbox.url])
  expect(missing.code).toBe(2)
  expect(missing.stderr).toMatch(/missing .*--login/)
})

it("says whether card payouts ask PAN eligibility first: on by default, off by flag or environment; anything else is a usage error", async () => {
  const on = await runCli(args())
  expect(on.stdout).toMatch(/^PAN eligibility: on: a payout to a card asks PAN eligibility first/m)
  const off = await runCli(args({ "--pan-eligibility": "off" }))
  expect(off.stdout).toMatch(/^PAN eligibility: off: card payouts are sent without asking/m)
  const json = JSON.parse((await runCli([...args({ "--pan-eligibility": "off" }), "--json"])).stdout)
  expect(json.pan_eligibility).toBe(false)
  const bad = await runCli(args({ "--pan-eligibility": "maybe" }))
  expect(bad.code).toBe(2)
  expect(bad.stderr).toMatch(/--pan-eligibility must be on or off/)
})

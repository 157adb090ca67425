/**
 * `sandbox` command, in-process: prints the defaults in effect, then "sandbox listening on http://HOST:PORT" once
 * the server accepts requests (proved by a real signed STATUS request right after the line), and stops cleanly
 * when signalled. The built bin (spawned as a child process) is covered in bin.unit.spec.ts.
 */
import { createHash } from "node:crypto"
import { DEFAULT_SANDBOX_MERCHANT } from "../../sandbox"
import { runCli } from "./capture"

const LISTENING = /sandbox listening on (http:\/\/127\.0\.0\.1:(\d+))\n/

function sha1(s: string) {
  return createHash("sha1").update(s).digest("hex")
}

/** Runs the command until `ready(stdout)` matches, returns what matched plus a stop function. */
async function startCommand(argv: string[]) {
  const controller = new AbortController()
  let resolveReady!: (m: RegExpMatchArray) => void
  const ready = new Promise<RegExpMatchArray>((r) => (resolveReady = r))
  const done = runCli(argv, {}, controller.signal, (stdout) => {
    const m = stdout.match(LISTENING)
    if (m) resolveReady(m)
  })
  const match = await Promise.race([ready, done.then((r) => Promise.reject(new Error(`exited early: ${JSON.stringify(r)}`)))])
  return { match, stop: async () => (controller.abort(), done) }
}

describe("medusa-payneteasy sandbox", () => {
  it("prints the defaults, then the listening line, serves signed requests, and stops on signal", async () => {
    const { match, stop } = await startCommand(["sandbox", "--port", "0", "--processing-ms", "10"])
    const origin = match[1]
    // Answers a real STATUS (control = sha1(login + client_orderid + orderid + key)) for an order it does not know.
    const body = new URLSearchParams({
      login: DEFAULT_SANDBOX_MERCHANT.login,
      client_orderid: "nope",
      orderid: "1",
      control: sha1(`${DEFAULT_SANDBOX_MERCHANT.login}nope1${DEFAULT_SANDBOX_MERCHANT.controlKey}`),
    })
    const res = await fetch(`${origin}/paynet/api/v2/status/1111`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    })
    const text = await res.text()
    const result = await stop()
    expect(res.status).toBeLessThan(500)
    // Past the control check (a bad control would be refused as such): the order is simply unknown.
    expect(text).toContain("error-message=Unknown+orderid")
    expect(result.code).toBe(0)
    const out = result.stdout
    expect(out).toContain(`login             ${DEFAULT_SANDBOX_MERCHANT.login}`)
    expect(out).toContain(`control key       ${DEFAULT_SANDBOX_MERCHANT.controlKey}`) // public test key, on purpose
    expect(out).toContain("endpoint ids      1111")
    expect(out).toContain("endpoint groups   2222")
    expect(out).toContain("processing        10 ms")
    expect(out).toContain(`gateway base URL  ${origin}/paynet`)
    // The defaults come before the listening line, and "stopped" after it.
    expect(out.indexOf("login ")).toBeLessThan(out.search(LISTENING))
    expect(out).toMatch(/sandbox stopped \(abort\)\n$/)
    // After stopping, the port no longer answers.
    await expect(fetch(`${origin}/paynet/api/v2/status/1111`, { method: "POST" })).rejects.toThrow()
  })

  it("uses the merchant given on the command line and never echoes its control key", async () => {
    const key = "MY-OWN-CONTROL-KEY-123456"
    const { match, stop } = await startCommand([
      "sandbox", "--port", "0", "--login", "acme", "--control-key", key, "--endpoint-id", "7", "--endpoint-id", "8",
    ])
    const origin = match[1]
    let result: Awaited<ReturnType<typeof stop>>
    try {
      const body = new URLSearchParams({ login: "acme", client_orderid: "x", orderid: "1", control: sha1(`acmex1${key}`) })
      const good = await (await fetch(`${origin}/paynet/api/v2/status/8`, { method: "POST", body })).text()
      const bad = await (await fetch(`${origin}/paynet/api/v2/status/1111`, { method: "POST", body })).text()
      // Endpoint 8 is acme's: the control passes and the order is simply unknown. 1111 is not configured at all.
      expect(good).toContain("error-message=Unknown+orderid")
      expect(bad).toContain("error-message=Unknown+endpoint")
    } finally {
      result = await stop()
    }
    expect(result.stdout).toContain("endpoint ids      7, 8")
    expect(result.stdout + result.stderr).not.toContain(key)
  })

  it("refuses bad flags before listening", async () => {
    const res = await runCli(["sandbox", "--port", "eighty"])
    expect(res.code).toBe(2)
    expect(res.stderr).toMatch(/--port must be a whole number/)
    expect(res.stdout).not.toMatch(LISTENING)
  })
})

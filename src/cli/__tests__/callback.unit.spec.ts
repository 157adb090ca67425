/** `callback verify`: exit 0 for a valid control, 1 for anything else; the formula is cross-checked with node's sha1. */
import { createHash } from "node:crypto"
import { runCli } from "./capture"

const KEY = "B17F59B4-A7DC-41B4-8FF9-37D986B43D20"
const sha1 = (s: string) => createHash("sha1").update(s).digest("hex")

function query(params: Record<string, string>) {
  return new URLSearchParams(params).toString()
}

describe("medusa-payneteasy callback verify", () => {
  const base = { status: "approved", orderid: "1234567", client_orderid: "payses_01TEST", amount: "10.42" }
  const valid = { ...base, control: sha1(`approved1234567payses_01TEST${KEY}`) }

  it("exits 0 when the control matches (query string, leading ?, or full URL)", async () => {
    for (const q of [query(valid), `?${query(valid)}`, `https://shop.example/payneteasy/callback?${query(valid)}`]) {
      const res = await runCli(["callback", "verify", "--control-key", KEY, q])
      expect(res).toMatchObject({ code: 0 })
      expect(res.stdout).toMatch(/^valid/)
    }
  })

  it("accepts an upper-case control and merchant_order in place of client_orderid", async () => {
    const { client_orderid, ...rest } = valid
    const q = query({ ...rest, merchant_order: client_orderid, control: valid.control.toUpperCase() })
    expect((await runCli(["callback", "verify", "--control-key", KEY, q])).code).toBe(0)
  })

  it("takes the key from PAYNETEASY_CONTROL_KEY", async () => {
    expect((await runCli(["callback", "verify", query(valid)], { PAYNETEASY_CONTROL_KEY: KEY })).code).toBe(0)
  })

  it("exits 1 for a wrong key, a tampered status, or a missing control", async () => {
    const wrongKey = await runCli(["callback", "verify", "--control-key", "other-key", query(valid)])
    expect(wrongKey.code).toBe(1)
    expect(wrongKey.stdout).toMatch(/^invalid/)
    const tampered = await runCli(["callback", "verify", "--control-key", KEY, query({ ...valid, status: "declined" })])
    expect(tampered.code).toBe(1)
    const missing = await runCli(["callback", "verify", "--control-key", KEY, query(base)])
    expect(missing.code).toBe(1)
    expect(missing.stdout).toMatch(/missing control/)
  })

  it("never prints the control key", async () => {
    const outputs = await Promise.all([
      runCli(["callback", "verify", "--control-key", KEY, query(valid)]),
      runCli(["callback", "verify", "--control-key", KEY, query(base)]),
    ])
    for (const r of outputs) expect(r.stdout + r.stderr).not.toContain(KEY)
  })

  it("exits 2 on usage errors (no key, no query, unknown subcommand)", async () => {
    expect((await runCli(["callback", "verify", query(valid)])).code).toBe(2)
    expect((await runCli(["callback", "verify", "--control-key", KEY])).code).toBe(2)
    expect((await runCli(["callback", "check", "--control-key", KEY, query(valid)])).code).toBe(2)
  })
})

/** `keys generate`: RSA pair, ≥ 2048 bits, PKCS#8 private (0600) + SPKI public, dir 0700, no overwrite. */
import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { runCli } from "./capture"

describe("medusa-payneteasy keys generate", () => {
  let tmp: string
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pne-keys-"))
  })
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it("writes a 2048-bit PKCS#8 private key with mode 0600 and its SPKI public key, creating the dir 0700", async () => {
    const out = path.join(tmp, "nested", "keys")
    const res = await runCli(["keys", "generate", "--out", out])
    expect(res.code).toBe(0)
    expect(fs.statSync(out).mode & 0o777).toBe(0o700)

    const privatePath = path.join(out, "payneteasy-private.pem")
    const publicPath = path.join(out, "payneteasy-public.pem")
    expect(fs.statSync(privatePath).mode & 0o777).toBe(0o600)
    const privatePem = fs.readFileSync(privatePath, "utf8")
    const publicPem = fs.readFileSync(publicPath, "utf8")
    expect(privatePem).toMatch(new RegExp(`^-----BEGIN ${"PRIVATE KEY"}-----\n`)) // PKCS#8, not the PKCS#1 "RSA PRIVATE KEY" PEM
    expect(publicPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/) // SPKI

    const priv = createPrivateKey(privatePem)
    const pub = createPublicKey(publicPem)
    expect(priv.asymmetricKeyType).toBe("rsa")
    expect(priv.asymmetricKeyDetails?.modulusLength).toBe(2048)
    // The two files are one pair.
    const sig = sign("sha256", Buffer.from("payneteasy"), priv)
    expect(verify("sha256", Buffer.from("payneteasy"), pub, sig)).toBe(true)

    // The key itself is never printed, only where it went.
    expect(res.stdout).toContain(privatePath)
    expect(res.stdout + res.stderr).not.toContain("PRIVATE KEY")
  })

  it("honours --bits and refuses fewer than 2048", async () => {
    const ok = await runCli(["keys", "generate", "--out", tmp, "--bits", "3072"])
    expect(ok.code).toBe(0)
    const key = createPrivateKey(fs.readFileSync(path.join(tmp, "payneteasy-private.pem")))
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(3072)

    const weak = await runCli(["keys", "generate", "--out", path.join(tmp, "weak"), "--bits", "1024"])
    expect(weak.code).toBe(2)
    expect(weak.stderr).toMatch(/--bits must be between 2048/)
    expect(fs.existsSync(path.join(tmp, "weak"))).toBe(false)
  })

  it("never overwrites an existing key", async () => {
    expect((await runCli(["keys", "generate", "--out", tmp])).code).toBe(0)
    const before = fs.readFileSync(path.join(tmp, "payneteasy-private.pem"), "utf8")
    const again = await runCli(["keys", "generate", "--out", tmp])
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/already exists/)
    expect(fs.readFileSync(path.join(tmp, "payneteasy-private.pem"), "utf8")).toBe(before)
  })

  it("requires --out", async () => {
    const res = await runCli(["keys", "generate"])
    expect(res.code).toBe(2)
    expect(res.stderr).toMatch(/missing --out/)
  })
})

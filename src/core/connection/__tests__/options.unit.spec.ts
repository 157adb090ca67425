import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { GatewayValidationError } from "../../../gateway"
import { DEFAULT_SANDBOX_MERCHANT, startSandbox } from "../../../sandbox"
import { clientFromOptions, parseOptions, resolvePrivateKey } from "../options"
import { PaynetEasyProviderService } from "../../../providers/payneteasy/provider"

const valid = {
  baseUrl: "http://127.0.0.1:4010/paynet",
  endpointId: "1111",
  login: "merchant",
  controlKey: "B17F59B4-A7DC-41B4-8FF9-37D986B43D20",
  backendUrl: "https://shop.example",
}

describe("provider options", () => {
  it("accepts the minimum and applies defaults", () => {
    expect(parseOptions(valid)).toMatchObject({ capture: "manual", flow: "hosted", endpointId: "1111" })
    expect(() => PaynetEasyProviderService.validateOptions(valid)).not.toThrow()
  })

  it.each([
    [{ ...valid, baseUrl: undefined }, /baseUrl/],
    [{ ...valid, baseUrl: "ftp://x" }, /baseUrl must be an http\(s\) URL/],
    [{ ...valid, endpointId: undefined }, /exactly one of endpointId or endpointGroupId/],
    [{ ...valid, endpointGroupId: "2222" }, /exactly one of endpointId or endpointGroupId/],
    [{ ...valid, endpointId: "abc" }, /endpointId must be the numeric id/],
    [{ ...valid, login: "" }, /login must not be empty/],
    [{ ...valid, controlKey: undefined }, /controlKey is required/],
    [{ ...valid, capture: "later" }, /capture must be "manual"/],
    [{ ...valid, flow: "iframe" }, /flow must be "hosted"/],
    [{ ...valid, backendUrl: "shop" }, /backendUrl/],
    [{ ...valid, timeouts: { connectMs: -1 } }, /timeouts.connectMs must be a positive number/],
  ])("rejects %j with a message saying what to fix", (options, message) => {
    expect(() => PaynetEasyProviderService.validateOptions(options as any)).toThrow(message)
  })

  it("never echoes the control key in errors", () => {
    try {
      parseOptions({ ...valid, login: "" })
    } catch (e) {
      expect((e as Error).message).not.toContain(valid.controlKey)
    }
  })

  it("privateKey: PEM text as is, otherwise a readable path", () => {
    const pem = `-----BEGIN ${"PRIVATE KEY"}-----\nAAAA\n-----END ${"PRIVATE KEY"}-----\n` // dummy, not a key
    expect(resolvePrivateKey(pem)).toBe(pem)
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pk-")), "key.pem")
    fs.writeFileSync(file, pem)
    expect(resolvePrivateKey(file)).toBe(pem)
    expect(() => resolvePrivateKey("/nonexistent/key.pem")).toThrow(/neither PEM text nor a readable file/)
    expect(resolvePrivateKey(undefined)).toBeUndefined()
  })
})

describe("clientFromOptions (for reconciliation outside the provider)", () => {
  it("builds a client that signs with the options' credentials; bad options throw the provider's message", async () => {
    const sandbox = await startSandbox({ port: 0 })
    const opts = { ...valid, baseUrl: sandbox.url, login: DEFAULT_SANDBOX_MERCHANT.login, controlKey: DEFAULT_SANDBOX_MERCHANT.controlKey }
    const good = clientFromOptions(opts)
    const wrongKey = clientFromOptions({ ...opts, controlKey: "not-the-key" })
    try {
      // Signed correctly, the sandbox gets as far as looking the order up; with another key it stops at the control.
      const reason = (c: typeof good) => c.request("STATUS", { client_orderid: "payses_none" }).then(
        () => "answered", (e) => (e instanceof GatewayValidationError ? e.gatewayMessage : String(e)))
      expect(await reason(good)).toMatch(/Unknown client_orderid/)
      expect(await reason(wrongKey)).toMatch(/Invalid control/)
    } finally {
      await good.close()
      await wrongKey.close()
      await sandbox.close()
    }
    expect(() => clientFromOptions({ ...valid, endpointGroupId: "2222" })).toThrow(/exactly one of endpointId or endpointGroupId/)
  })
})

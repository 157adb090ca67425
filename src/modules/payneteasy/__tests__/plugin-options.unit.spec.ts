import pluginOptionsCheck from "../loaders/plugin-options-check"
import { callbackProcessingDelayMs, DEFAULT_CALLBACK_PROCESSING_DELAY_MS } from "../plugin-options"

describe("plugin option callbackProcessingDelayMs", () => {
  it("defaults to a second; 0 and up to 30 s are taken as given", () => {
    expect(DEFAULT_CALLBACK_PROCESSING_DELAY_MS).toBe(1000)
    expect(callbackProcessingDelayMs(undefined)).toBe(1000)
    expect(callbackProcessingDelayMs({})).toBe(1000)
    expect(callbackProcessingDelayMs({ callbackProcessingDelayMs: 0 })).toBe(0)
    expect(callbackProcessingDelayMs({ callbackProcessingDelayMs: 30_000 })).toBe(30_000)
  })

  it.each([
    ["1000", "must be a number of milliseconds"],
    [Number.NaN, "must be a number of milliseconds"],
    [1.5, "must be a whole number"],
    [-1, "must be 0 (process at once) or more"],
    [30_001, "must be at most 30000"],
    [null, "must be a number of milliseconds"],
  ])("refuses %p, naming the option", (value, reason) => {
    expect(() => callbackProcessingDelayMs({ callbackProcessingDelayMs: value })).toThrow(
      new RegExp(`^medusa-payment-payneteasy option callbackProcessingDelayMs ${reason.replace(/[()]/g, "\\$&")}`)
    )
  })

  it("the module's loader refuses an invalid one when Medusa boots, and passes a valid one", async () => {
    const run = (options: Record<string, unknown>) => pluginOptionsCheck({ options } as never)
    await expect(run({ callbackProcessingDelayMs: -5 })).rejects.toThrow("callbackProcessingDelayMs must be 0")
    await expect(run({ callbackProcessingDelayMs: 200, storefrontReturnUrl: "https://shop.test" })).resolves.toBeUndefined()
    await expect(run({})).resolves.toBeUndefined()
  })
})

/**
 * Shared set-up for the browser specs, one per spec file: the gateway sandbox in-process on a free port, the
 * gateway client pointed at it with the default sandbox merchant, the recording merchant server, and one Chromium.
 * Every test gets a fresh browser context (no cookies or cache carried over) and a clean sandbox and merchant log.
 * JavaScript errors raised by any page fail the test (the sandbox pages must run cleanly in a real browser).
 *
 * Call `useBrowserHarness()` at the top level of a spec; the returned accessor is valid inside tests and hooks.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { PaynetEasyClient } from "../../src/gateway"
import { DEFAULT_SANDBOX_MERCHANT, startSandbox, type Sandbox } from "../../src/sandbox"
import { launchChromium } from "./chromium"
import { startMerchant, type Merchant } from "./merchant"

export interface Harness {
  sandbox: Sandbox
  client: PaynetEasyClient
  merchant: Merchant
  browser: Browser
  context: BrowserContext
  page: Page
  /** Uncaught exceptions thrown by scripts of any page in this test. */
  pageErrors: string[]
}

export const M = DEFAULT_SANDBOX_MERCHANT

export function useBrowserHarness(): () => Harness {
  let sandbox: Sandbox | undefined
  let client: PaynetEasyClient | undefined
  let merchant: Merchant | undefined
  let browser: Browser | undefined
  let context: BrowserContext | undefined
  let page: Page | undefined
  let pageErrors: string[] = []

  beforeAll(async () => {
    // Chromium first: without it nothing below matters, and the error says how to install it.
    browser = await launchChromium()
    // processingMs 50: long enough that the payer usually meets the "processing" wait page (meta refresh) first.
    sandbox = await startSandbox({ port: 0, host: "127.0.0.1", processingMs: 50 })
    client = new PaynetEasyClient({
      baseUrl: sandbox.url, endpointId: M.endpointIds[0], login: M.login, controlKey: M.controlKey,
    })
    merchant = await startMerchant()
  })

  afterAll(async () => {
    await browser?.close()
    await client?.close()
    await merchant?.close()
    await sandbox?.close()
  })

  beforeEach(async () => {
    if (!browser) throw new Error("browser harness: Chromium did not start (see the beforeAll error)")
    pageErrors = []
    context = await browser.newContext()
    context.setDefaultTimeout(15_000)
    context.on("page", (p) => p.on("pageerror", (e) => pageErrors.push(e.message)))
    page = await context.newPage()
  })

  afterEach(async () => {
    await context?.close()
    context = undefined
    page = undefined
    sandbox?.control.reset()
    if (merchant) merchant.hits.length = 0
    if (pageErrors.length > 0) throw new Error(`script errors on the pages: ${pageErrors.join(" | ")}`)
  })

  return () => {
    if (!sandbox || !client || !merchant || !browser || !context || !page) {
      throw new Error("browser harness used outside a test (or its beforeAll failed)")
    }
    return { sandbox, client, merchant, browser, context, page, pageErrors }
  }
}

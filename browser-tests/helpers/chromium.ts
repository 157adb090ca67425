/**
 * Which Chromium the browser tests drive through playwright-core, so `npm test` needs nothing installed by hand:
 *   1. PAYNETEASY_CHROMIUM=<path>  → that binary (to test against a particular build);
 *   2. /usr/bin/chromium           → the system one (Debian's `chromium` package) when present;
 *   3. otherwise                    → the Chromium that the npm devDependency @sparticuz/chromium ships inside its
 *                                     tarball (unpacked to the OS temp dir on first use, with the shared libraries it
 *                                     needs), so a machine with no browser still runs the real thing.
 * The browser tier starts ONE of them for the run (global-setup.ts, launchChromiumServer) and every spec file connects
 * to it (launchChromium); a spec run without that set-up launches its own.
 * We never download a browser (`npx playwright install` is not used). A Chromium that does not start is an ERROR
 * naming the binary, never a skip: a browser suite that silently passes without a browser would prove nothing.
 */
import { existsSync } from "node:fs"
import { chromium, type Browser, type BrowserServer } from "playwright-core"

/** Where the Debian `chromium` package puts the browser. */
export const SYSTEM_CHROMIUM_PATH = "/usr/bin/chromium"

const ARGS = [
  "--headless",
  "--no-sandbox", // CI runs as root, where Chromium's own sandbox refuses to start
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
]

export interface ChromiumBinary {
  path: string
  source: "env" | "system" | "npm:@sparticuz/chromium"
}

/** Finds the browser binary by the order above. */
export async function findChromium(): Promise<ChromiumBinary> {
  const fromEnv = process.env.PAYNETEASY_CHROMIUM
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`PAYNETEASY_CHROMIUM=${fromEnv} does not exist`)
    return { path: fromEnv, source: "env" }
  }
  if (existsSync(SYSTEM_CHROMIUM_PATH)) return { path: SYSTEM_CHROMIUM_PATH, source: "system" }
  // ESM-only package: a dynamic import keeps this file loadable by Jest's CommonJS transform.
  const { default: packaged } = await import("@sparticuz/chromium")
  return { path: await packaged.executablePath(), source: "npm:@sparticuz/chromium" }
}

/** Set by the browser tier's global set-up (global-setup.ts): the one Chromium of the run, for every spec to connect to. */
export const CHROMIUM_WS_ENV = "PNE_CHROMIUM_WS_ENDPOINT"

/**
 * The browser for a spec file: a connection to the run's one Chromium (started by global-setup.ts; `close()` then only
 * disconnects, leaving the contexts of other spec files alone), or a Chromium of its own when none was started.
 */
export async function launchChromium(): Promise<Browser> {
  const ws = process.env[CHROMIUM_WS_ENV]
  if (ws) {
    try {
      return await chromium.connect(ws)
    } catch (e) {
      const reason = e instanceof Error ? e.message.split("\n")[0] : String(e)
      throw new Error(`the run's Chromium (${ws}) did not accept a connection: ${reason}`)
    }
  }
  const binary = await findChromium()
  try {
    return await chromium.launch({ executablePath: binary.path, args: ARGS })
  } catch (e) {
    const reason = e instanceof Error ? e.message.split("\n")[0] : String(e)
    throw new Error(`Chromium (${binary.source}, ${binary.path}) did not start: ${reason}`)
  }
}

/** One Chromium for the whole run, served over a WebSocket (playwright's launchServer) for the specs to connect to. */
export async function launchChromiumServer(): Promise<BrowserServer> {
  const binary = await findChromium()
  try {
    return await chromium.launchServer({ executablePath: binary.path, args: ARGS })
  } catch (e) {
    const reason = e instanceof Error ? e.message.split("\n")[0] : String(e)
    throw new Error(`Chromium (${binary.source}, ${binary.path}) did not start: ${reason}`)
  }
}

/**
 * Which Chromium the browser tests drive through playwright-core, so `npm test` needs nothing installed by hand:
 *   1. PAYNETEASY_CHROMIUM=<path>  → that binary (to test against a particular build);
 *   2. /usr/bin/chromium           → the system one (Debian's `chromium` package) when present;
 *   3. otherwise                    → the Chromium that the npm devDependency @sparticuz/chromium ships inside its
 *                                     tarball (unpacked to the OS temp dir on first use, with the shared libraries it
 *                                     needs), so a machine with no browser still runs the real thing.
 * We never download a browser (`npx playwright install` is not used). A Chromium that does not start is an ERROR
 * naming the binary, never a skip: a browser suite that silently passes without a browser would prove nothing.
 */
import { existsSync } from "node:fs"
import { chromium, type Browser } from "playwright-core"

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

export async function launchChromium(): Promise<Browser> {
  const binary = await findChromium()
  try {
    return await chromium.launch({ executablePath: binary.path, args: ARGS })
  } catch (e) {
    const reason = e instanceof Error ? e.message.split("\n")[0] : String(e)
    throw new Error(`Chromium (${binary.source}, ${binary.path}) did not start: ${reason}`)
  }
}

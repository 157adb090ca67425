/**
 * Launching the system Chromium (Debian package, /usr/bin/chromium) for playwright-core. We never download a
 * browser (`npx playwright install` is not used); CI installs the distribution package with apt-get (.ci/run).
 * A missing or unlaunchable Chromium is an ERROR with the install command, never a skip: a browser suite that
 * silently passes without a browser would prove nothing.
 */
import { existsSync } from "node:fs"
import { chromium, type Browser } from "playwright-core"

/** Where the Debian `chromium` package puts the browser. */
export const CHROMIUM_PATH = "/usr/bin/chromium"

const ARGS = [
  "--headless",
  "--no-sandbox", // CI runs as root, where Chromium's own sandbox refuses to start
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
]

const INSTALL_HINT =
  "install it with: apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium"

export async function launchChromium(executablePath: string = CHROMIUM_PATH): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new Error(`Chromium not found at ${executablePath}; the browser tests need it — ${INSTALL_HINT}`)
  }
  try {
    return await chromium.launch({ executablePath, args: ARGS })
  } catch (e) {
    const reason = e instanceof Error ? e.message.split("\n")[0] : String(e)
    throw new Error(`Chromium at ${executablePath} did not start (${reason}); ${INSTALL_HINT}`)
  }
}

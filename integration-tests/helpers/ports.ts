/**
 * A free TCP port for a test app or the test session, which listens on it later (not at once: the port is reserved
 * here, then named in the app's config). Chosen at random below the OS's ephemeral range and checked by binding it:
 * a port from the ephemeral range (what binding port 0 gives) can be taken in the meantime by any outgoing
 * connection's local port — a Postgres client, an HTTP request — and the app's listen then fails with EADDRINUSE (seen
 * once in eight whole runs, the test session's boot, issue 38). Below the range, only another listener can take it.
 */
import fs from "node:fs"
import net from "node:net"

/** The lowest port the OS hands out for outgoing connections and port 0 (Linux: ip_local_port_range). */
function ephemeralLow(): number {
  try {
    const [low] = fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number)
    if (Number.isInteger(low) && low > 2048) return low
  } catch {
    // not Linux: the IANA range starts at 49152
  }
  return process.platform === "linux" ? 32768 : 49152
}

/** Whether `port` can be listened on at `host` (a machine without IPv6 answers yes for "::"). */
function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.unref()
    server.once("error", (e: NodeJS.ErrnoException) => resolve(host === "::" && (e.code === "EAFNOSUPPORT" || e.code === "EADDRNOTAVAIL")))
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)))
  })
}

export async function getFreePort(host = "127.0.0.1"): Promise<number> {
  const high = ephemeralLow() - 1
  const low = Math.max(1025, high - 12_000)
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1))
    // free on the given host and on every address (Medusa listens on all of them, "::")
    if ((await bindable(port, host)) && (await bindable(port, "0.0.0.0")) && (await bindable(port, "::"))) return port
  }
  throw new Error(`no free port between ${low} and ${high}`)
}

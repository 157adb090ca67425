/** Test-only merchant callback receiver: records every request; answers with scripted status codes (then 200). */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

export interface Received {
  method: string
  path: string
  query: Record<string, string>
}

export async function startMerchant(statuses: number[] = []): Promise<{
  url: string
  received: Received[]
  waitFor: (n: number, timeoutMs?: number) => Promise<Received[]>
  close: () => Promise<void>
}> {
  const received: Received[] = []
  const script = [...statuses]
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://x")
    received.push({ method: req.method ?? "", path: u.pathname, query: Object.fromEntries(u.searchParams) })
    res.writeHead(script.shift() ?? 200).end("ok")
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    received,
    waitFor: async (n, timeoutMs = 10_000) => {
      const end = Date.now() + timeoutMs
      while (received.length < n) {
        if (Date.now() > end) throw new Error(`merchant got ${received.length} of ${n} requests`)
        await new Promise((r) => setTimeout(r, 10))
      }
      return received
    },
    close: () => new Promise((r) => {
      server.close(() => r())
      server.closeAllConnections()
    }),
  }
}

/**
 * A tiny merchant web server (node:http) standing in for the shop: it records every request its redirect_url
 * receives — method, headers that tell a browser navigation from a script (origin, sec-fetch-mode, content-type)
 * and the urlencoded body with repeated keys kept — and answers a small HTML "thank you" page naming the status, so
 * the test can see the browser really landed on the shop.
 */
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"

export interface MerchantHit {
  method: string
  path: string
  headers: IncomingMessage["headers"]
  /** Body parameters; a key sent more than once keeps every value (a double-submitted form would show here). */
  params: Record<string, string | string[]>
}

export interface Merchant {
  url: string
  /** redirect_url to hand to the gateway. */
  returnUrl: string
  hits: MerchantHit[]
  /** Requests to the return path carrying this client_orderid. */
  returnsFor(clientOrderId: string): MerchantHit[]
  close(): Promise<void>
}

const RETURN_PATH = "/checkout/payneteasy-return"

function parseBody(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [k, v] of new URLSearchParams(body)) {
    const prev = out[k]
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v]
  }
  return out
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export async function startMerchant(): Promise<Merchant> {
  const hits: MerchantHit[] = []
  const server: Server = createServer((req, res) => {
    let body = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => (body += chunk))
    req.on("end", () => {
      const u = new URL(req.url ?? "/", "http://merchant")
      const hit: MerchantHit = { method: req.method ?? "", path: u.pathname, headers: req.headers, params: parseBody(body) }
      hits.push(hit)
      const status = typeof hit.params.status === "string" ? hit.params.status : "unknown"
      res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(
          `<!doctype html><html><head><title>Shop</title></head><body>` +
            `<h1 id="merchant-result">Shop received: ${escapeHtml(status)}</h1></body></html>`,
        )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    returnUrl: `${url}${RETURN_PATH}`,
    hits,
    returnsFor: (cid) => hits.filter((h) => h.path === RETURN_PATH && h.params.client_orderid === cid),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/**
 * A tiny node:http stand-in for the gateway, for the client tests only (the real sandbox lives in src/sandbox).
 * Records every request (path, headers, decoded body) and the number of TCP connections; each test sets the reply.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface SeenRequest {
  method: string
  path: string
  headers: IncomingMessage["headers"]
  rawBody: string
  body: Record<string, string>
}

export type Handler = (req: SeenRequest, res: ServerResponse) => void

export interface TestServer {
  origin: string
  requests: SeenRequest[]
  connections: () => number
  handle: (handler: Handler) => void
  close: () => Promise<void>
}

export async function startTestServer(): Promise<TestServer> {
  const requests: SeenRequest[] = []
  let connections = 0
  let handler: Handler = (_req, res) => {
    res.writeHead(500).end()
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8")
      const seen: SeenRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        rawBody,
        body: Object.fromEntries(new URLSearchParams(rawBody)),
      }
      requests.push(seen)
      handler(seen, res)
    })
  })
  server.on("connection", () => connections++)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    handle: (h) => {
      handler = h
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/vnd.pay+json" }).end(typeof body === "string" ? body : JSON.stringify(body))
}

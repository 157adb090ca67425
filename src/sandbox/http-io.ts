/**
 * Reading requests and writing replies in the gateway's two formats.
 *
 * JSON (request sent `Accept: application/vnd.pay+json`): body is JSON, content type application/vnd.pay+json
 * (a +json type), refusals are HTTP 400 with {type: "validation-error", error-message, error-code}.
 * Legacy (any other Accept, including none): `text/html;charset=utf-8`, body `key=value\n&key=value\n` with values
 * form-urlencoded and 0x0A after every value; validation errors come back with HTTP 200 (notes §2).
 */
import type { IncomingMessage, ServerResponse } from "node:http"

/** Where a handler puts a reply that is a JSON list (get-balance, api-balance.ts): sendReply writes it as the body. */
export const LIST_REPLY = "__list"

export type ReplyFields = Record<string, string | number | undefined>
export type Mode = "json" | "legacy"

export function modeOf(accept: string | undefined): Mode {
  return accept && /application\/vnd\.pay\+json/i.test(accept) ? "json" : "legacy"
}

const MAX_BODY = 256 * 1024

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on("data", (c: Buffer) => {
      size += c.length
      if (size > MAX_BODY) {
        reject(new Error("request body too large"))
        req.destroy()
        return
      }
      chunks.push(c)
    })
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })
}

/** Decoded pairs in order (for OAuth) and a trimmed map (last value wins) for everything else. */
export function parseForm(body: string): { pairs: Array<[string, string]>; fields: Record<string, string> } {
  const pairs = [...new URLSearchParams(body).entries()]
  const fields: Record<string, string> = {}
  for (const [k, v] of pairs) fields[k] = v.trim()
  return { pairs, fields }
}

export function encodeLegacy(fields: ReplyFields): string {
  let out = ""
  let first = true
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue
    const pair = new URLSearchParams([[k, String(v)]]).toString()
    out += (first ? "" : "&") + pair + "\n"
    first = false
  }
  return out
}

function definedFields(fields: ReplyFields): Record<string, string | number> {
  const clean: Record<string, string | number> = {}
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) clean[k] = v
  return clean
}

/** Sends a gateway reply. In legacy mode every status other than 5xx/403 becomes 200 (as the real gateway does). */
export function sendReply(res: ServerResponse, mode: Mode, httpStatus: number, fields: ReplyFields): void {
  const list = fields[LIST_REPLY]
  if (typeof list === "string") {
    // a reply that is a JSON list (get-balance, api-balance.ts); the legacy form carries its first item, flat
    if (mode === "legacy") {
      // numbers as their exact text (the list is the sandbox's own JSON: every number follows a colon)
      const items = JSON.parse(list.replace(/:(-?\d+(?:\.\d+)?)(?=[,}])/g, ':"$1"')) as ReplyFields[]
      return sendReply(res, mode, httpStatus, items[0] ?? {})
    }
    res.writeHead(httpStatus, { "content-type": "application/vnd.pay+json;charset=utf-8", "content-length": Buffer.byteLength(list) })
    res.end(list)
    return
  }
  if (mode === "json") {
    const body = JSON.stringify(definedFields(fields))
    res.writeHead(httpStatus, { "content-type": "application/vnd.pay+json;charset=utf-8", "content-length": Buffer.byteLength(body) })
    res.end(body)
  } else {
    const body = encodeLegacy(fields)
    const status = httpStatus >= 500 ? httpStatus : 200
    res.writeHead(status, { "content-type": "text/html;charset=utf-8", "content-length": Buffer.byteLength(body) })
    res.end(body)
  }
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "text/plain;charset=utf-8", "content-length": Buffer.byteLength(text), ...headers })
  res.end(text)
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html;charset=utf-8", "content-length": Buffer.byteLength(html), "cache-control": "no-store" })
  res.end(html)
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v))
  res.writeHead(status, { "content-type": "application/json;charset=utf-8", "content-length": Buffer.byteLength(body) })
  res.end(body)
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, "content-length": 0 })
  res.end()
}

/**
 * The unreadable-200 fault (faults.ts): a reply to a request the sandbox DID process, spoiled so that no client can
 * read it. `garbage`: bytes that are neither JSON nor key=value under the right content type; `truncated`: the real
 * reply cut off half-way (JSON mode: broken JSON; legacy mode: cut inside its first key, so no field survives);
 * `wrong-content-type`: an HTML error page under text/html, what a proxy in front of the gateway answers.
 */
export function sendUnreadable(res: ServerResponse, mode: Mode, fields: ReplyFields, variant: "garbage" | "truncated" | "wrong-content-type"): void {
  const type = mode === "json" ? "application/vnd.pay+json;charset=utf-8" : "text/html;charset=utf-8"
  let body: string
  let contentType = type
  if (variant === "garbage") {
    body = "\u0000\u00ff\u00fe garbled reply ### \u0007"
  } else if (variant === "truncated") {
    const full = mode === "json" ? JSON.stringify(definedFields(fields)) : encodeLegacy(fields)
    body = mode === "json" ? full.slice(0, Math.max(1, Math.floor(full.length / 2))) : full.slice(0, Math.max(1, full.indexOf("=") - 1))
  } else {
    contentType = "text/html;charset=utf-8"
    body = "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>"
  }
  res.writeHead(200, { "content-type": contentType, "content-length": Buffer.byteLength(body) })
  res.end(body)
}

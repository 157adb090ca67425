/**
 * The sandbox HTTP server (node:http, no framework): routing only.
 *   /__sandbox/...                       steering and inspection (steering-http.ts)
 *   <prefix>/form|acs|result/<token>     payer pages (hosted.ts)
 *   <prefix><path>/<endpointId>          API operations of the shared table, POST only
 *   <prefix><path>/group/<groupId>
 * API requests pass the request faults, then admission (api-admit.ts), then (after a slow-processing hold,
 * slow-processing.ts) their handler (api-dispatch.ts).
 */
import { randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { OPERATIONS, type OperationName, type OperationSpec } from "../gateway/operations"
import { Refusal, type ApiRequest, type Ctx } from "./api-context"
import { admit } from "./api-admit"
import { HANDLERS } from "./api-dispatch"
import { pageUrl, statusReply } from "./api-replies"
import { CallbackSender } from "./callbacks"
import { createControl, type SandboxControl } from "./control"
import { Engine } from "./engine"
import { FaultBook } from "./faults"
import { handlePage } from "./hosted"
import { modeOf, parseForm, readBody, sendReply, sendText, sendUnreadable } from "./http-io"
import { NonceBook } from "./oauth-verify"
import { resolveOptions, type SandboxMerchant, type SandboxOptions } from "./options"
import { ProcessingDesk } from "./slow-processing"
import { Store } from "./state"
import { handleSteering } from "./steering-http"
import { setTimeout as sleep } from "node:timers/promises"

export interface Sandbox {
  /** Base URL including the prefix, e.g. http://127.0.0.1:41234/paynet — pass as GatewayConfig.baseUrl. */
  url: string
  /** http://127.0.0.1:41234 */
  origin: string
  control: SandboxControl
  close(): Promise<void>
}

const OP_BY_PATH = new Map<string, OperationSpec & { name: OperationName }>(
  (Object.entries(OPERATIONS) as Array<[OperationName, OperationSpec]>).map(([name, spec]) => [spec.path, { ...spec, name }]),
)


export async function startSandbox(options?: SandboxOptions): Promise<Sandbox> {
  const opts = resolveOptions(options)
  const store = new Store()
  const faults = new FaultBook()
  const callbacks = new CallbackSender(store, opts, faults)
  const engine = new Engine(store, opts, faults, callbacks)
  const processing = new ProcessingDesk()
  const nonces = new NonceBook(() => opts.oauthWindowSeconds * 2000)
  const fingerprintKey = randomBytes(32)
  const endpoints = new Map<string, SandboxMerchant>()
  for (const m of opts.merchants) {
    const keys = [...m.endpointIds.map((id) => `id:${id}`), ...(m.endpointGroupIds ?? []).map((id) => `group:${id}`)]
    for (const k of keys) {
      if (endpoints.has(k)) throw new Error(`sandbox endpoint ${k} is registered twice`)
      endpoints.set(k, m)
    }
  }
  // get-balance by manager: the URL names a manager login (operations.ts target "login"); its OAuth key is the
  // manager's own, and it sees the merchants it manages.
  const managers = new Map<string, { as: SandboxMerchant; managed: SandboxMerchant[] }>()
  for (const g of opts.managers) {
    const managed = opts.merchants.filter((m) => !g.merchantLogins || g.merchantLogins.includes(m.login))
    managers.set(`id:${g.login}`, { as: { login: g.login, controlKey: g.controlKey, endpointIds: [] }, managed })
  }
  const managerEndpoints = new Map([...managers].map(([k, v]) => [k, v.as]))
  let origin = ""
  const page = { get origin() { return origin }, opts }
  const control = createControl({
    store, engine, faults, callbacks, nonces, processing, pageUrl: (kind, token) => pageUrl(page, kind, token),
  })

  /** status-foreign: the named order, else the newest order of the merchant under another client_orderid (a scan: a fault path only). */
  function foreignOrder(login: string, clientOrderId: string | undefined, orderid: string) {
    if (orderid) return store.orders.get(orderid)
    let found
    for (const o of store.orders.values()) if (o.merchant.login === login && o.clientOrderId !== clientOrderId) found = o
    return found
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string, op: OperationSpec & { name: OperationName }, endpointKey: string, endpointId: string): Promise<void> {
    if (req.method !== "POST") return sendText(res, 405, "Method not allowed: the API accepts POST only", { allow: "POST" })
    store.requestCounts.set(op.name, (store.requestCounts.get(op.name) ?? 0) + 1)
    const f = faults.forRequest(op.name)
    if (f.latencyMs > 0) await sleep(f.latencyMs)
    if (f.terminal === "connection-reset") {
      opts.logger(`fault: connection reset before processing ${op.name}`)
      req.socket.destroy()
      return
    }
    const mode = modeOf(req.headers.accept)
    if (f.terminal === "http-500") {
      return sendReply(res, mode, 500, {
        type: "error", "serial-number": store.newSerial(), "error-message": "Internal server error (sandbox fault)", "error-code": "5",
      })
    }
    const body = await readBody(req)
    const ctype = req.headers["content-type"] ?? ""
    let clientGone = false
    res.on("close", () => {
      clientGone = !res.writableFinished
    })
    const refusal = (e: unknown) => {
      if (!(e instanceof Refusal)) throw e
      opts.logger(`${op.name} ${endpointId}: validation error: ${e.message}`)
      return {
        status: 400,
        fields: { type: "validation-error", "serial-number": store.newSerial(), "error-message": e.message, "error-code": e.code },
      }
    }
    let admitted: { apiReq: ApiRequest; merchant: SandboxMerchant; managed?: SandboxMerchant[] }
    try {
      if (body.trim() !== "" && !/^application\/x-www-form-urlencoded/i.test(ctype)) {
        throw new Refusal("Content-Type must be application/x-www-form-urlencoded")
      }
      const { pairs, fields } = parseForm(body)
      const host = (req.headers.host ?? "").toLowerCase().replace(/:80$/, "")
      const apiReq: ApiRequest = {
        op, endpointKey, endpointId, fields, pairs, mode, url: `http://${host}${path}`, authorization: req.headers.authorization,
      }
      const byLogin = op.target === "login"
      const adm = admit(apiReq, byLogin ? managerEndpoints : endpoints, opts, nonces)
      if (!adm.ok) {
        opts.logger(`${op.name} ${endpointId}: 403 ${adm.forbidden}`)
        return sendText(res, 403, `403 Forbidden: ${adm.forbidden}`)
      }
      admitted = { apiReq, merchant: adm.merchant, managed: byLogin ? managers.get(endpointKey)?.managed : undefined }
    } catch (e) {
      const r = refusal(e)
      return sendReply(res, mode, r.status, r.fields)
    }

    /** Processes the admitted request (the store changes here) and answers it, if its client is still there. */
    const processAndReply = () => {
      const { apiReq, merchant, managed } = admitted
      let reply: { status: number; fields: Record<string, string | number> }
      try {
        const ctx: Ctx = { store, engine, faults, opts, origin, merchant, req: apiReq, fingerprintKey, managed }
        reply = { status: 200, fields: HANDLERS[op.name](ctx) }
        if (f.foreignOrderid !== undefined) {
          const other = foreignOrder(merchant.login, apiReq.fields.client_orderid, f.foreignOrderid)
          if (other) {
            opts.logger(`fault: STATUS for ${apiReq.fields.client_orderid} answered with order ${other.orderid}'s data`)
            reply = { status: 200, fields: statusReply(ctx, other) }
          }
        }
      } catch (e) {
        reply = refusal(e)
      }
      if (clientGone) {
        opts.logger(`${op.name} ${endpointId}: processed; its client had gone, no reply`)
        return
      }
      if (f.terminal === "response-lost") {
        opts.logger(`fault: ${op.name} processed, response lost`)
        req.socket.destroy()
        return
      }
      if (f.terminal === "unreadable-200") {
        opts.logger(`fault: ${op.name} processed, reply unreadable (${f.unreadable})`)
        return sendUnreadable(res, mode, reply.fields, f.unreadable ?? "garbage")
      }
      if (reply.status === 200) {
        const id = reply.fields["paynet-order-id"]
        opts.logger(`${op.name} ${endpointId} → ${reply.fields.type}${id !== undefined ? ` orderid ${id}` : ""}${reply.fields.status ? ` ${reply.fields.status}` : ""}`)
      }
      sendReply(res, mode, reply.status, reply.fields)
    }

    if (f.slowMs > 0) {
      const fields = admitted.apiReq.fields
      opts.logger(`fault: ${op.name} held in processing for ${f.slowMs} ms (slow-processing)`)
      const markGone = processing.hold(
        { operation: op.name, clientOrderId: fields.client_orderid, orderid: fields.orderid },
        f.slowMs,
        (outcome) => {
          if (outcome === "dropped") {
            if (!clientGone) req.socket.destroy()
            return
          }
          try {
            processAndReply()
          } catch (err) {
            // released from a timer or a steering call: no caller to hand the error to
            opts.logger(`unhandled error: ${err instanceof Error ? err.message : String(err)}`)
            if (!res.headersSent) sendText(res, 500, "sandbox internal error")
            else res.destroy()
          }
        },
      )
      res.on("close", () => {
        if (clientGone) markGone()
      })
      return
    }
    processAndReply()
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://sandbox.invalid")
    const path = url.pathname
    if (path === "/__sandbox" || path.startsWith("/__sandbox/")) return handleSteering(control, req, res, url)
    if (!path.startsWith(opts.prefix + "/")) return sendText(res, 404, `no route for ${req.method} ${path}`)
    const rest = path.slice(opts.prefix.length)
    const pageMatch = /^\/(form|acs|result)\/([0-9a-f]{8,64})$/.exec(rest)
    if (pageMatch) return handlePage({ store, engine, opts, origin }, pageMatch[1], pageMatch[2], req, res)
    const m = /^(.*?)(\/group)?\/([^/]+)$/.exec(rest)
    const op = m ? OP_BY_PATH.get(m[1]) : undefined
    if (!m || !op) return sendText(res, 404, `no route for ${req.method} ${path}`)
    return api(req, res, path, op, `${m[2] ? "group" : "id"}:${m[3]}`, m[3])
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      opts.logger(`unhandled error: ${err instanceof Error ? err.message : String(err)}`)
      if (!res.headersSent) sendText(res, 500, "sandbox internal error")
      else res.destroy()
    })
  })
  server.on("connection", () => {
    store.connections++
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  const addr = server.address() as AddressInfo
  const host = opts.host === "0.0.0.0" || opts.host === "::" ? "127.0.0.1" : opts.host.includes(":") ? `[${opts.host}]` : opts.host
  origin = `http://${host}:${addr.port}`
  const merchants = opts.merchants
    .map((m) => `${m.login} (endpoints ${m.endpointIds.join(",") || "-"}; groups ${(m.endpointGroupIds ?? []).join(",") || "-"}; RSA key ${m.publicKeyPem ? "yes" : "no"})`)
    .join("; ")
  opts.logger(
    `sandbox: prefix ${opts.prefix || "/"}; merchants ${merchants}; processingMs ${opts.processingMs}; ` +
      `callbackDelayMs ${opts.callbackDelayMs}; settleAfterMs ${opts.settleAfterMs ?? "never (settle on command)"}; ` +
      `callbacks ${opts.callbackAttempts} attempts, backoff ${opts.callbackBackoffMs} ms; steering at ${origin}/__sandbox/`,
  )

  let closed = false
  return {
    url: origin + opts.prefix,
    origin,
    control,
    close: async () => {
      if (closed) return
      closed = true
      engine.cancelAll()
      callbacks.cancelAll()
      processing.cancelAll()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}

/**
 * The HTTP face of SandboxControl, under /__sandbox/ (outside the API prefix; not part of the PaynetEasy API).
 * JSON in, JSON out; errors are {error: message} with 400/404. No authentication: the sandbox is a local test tool.
 *
 *   GET    /__sandbox/health
 *   GET    /__sandbox/transactions[?client_orderid=..]      GET /__sandbox/transactions/<orderid>
 *   POST   /__sandbox/transactions/<orderid>/force          {status, message?}
 *   POST   /__sandbox/transactions/<orderid>/chargeback     {amount?}
 *   POST   /__sandbox/transactions/<orderid>/dispute        {kind, amount?, reason_code?}   (kind: chargeback,
 *          second_chargeback, retrieval_request, fraud_marker, chargeback_reversal; also POST …/<kind> {amount?, reason_code?})
 *   POST   /__sandbox/settle                                {orderid?}
 *   GET    /__sandbox/callbacks     GET /__sandbox/stats (connections, requests)
 *   POST   /__sandbox/reset
 *   GET    /__sandbox/faults   POST /__sandbox/faults {rule}   DELETE /__sandbox/faults[/<id>]
 *   GET    /__sandbox/processing   POST /__sandbox/processing/finish {id?}   (slow-processing: held requests)
 *   POST   /__sandbox/card-refs/<id>/behaviour              {behaviour}
 *   POST   /__sandbox/eligibility                           {cardRefId? | bin + lastFour, eligible}
 *   GET    /__sandbox/balances[/<login>]   POST /__sandbox/balances[/<login>] {amount?, shortTermHolds?, rollingReserve?, currency?, access?}
 *   GET    /__sandbox/recurring-payments/<id>                (schedule, charges)
 *   POST   /__sandbox/recurring-payments/<id>/charge         {outcome: approved | declined | lost}
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { SandboxControl } from "./control"
import { readBody, sendJson } from "./http-io"
import { DISPUTE_KINDS, type DisputeKind } from "../gateway/disputes"

export async function handleSteering(control: SandboxControl, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const parts = url.pathname.split("/").filter(Boolean).slice(1) // drop "__sandbox"
  const method = req.method ?? "GET"
  let body: Record<string, unknown> = {}
  if (method === "POST") {
    const raw = await readBody(req)
    if (raw.trim()) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>
      } catch {
        return sendJson(res, 400, { error: "body must be JSON" })
      }
    }
  }
  const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v))
  try {
    const [a, b, c] = parts
    if (method === "GET" && a === "health") return sendJson(res, 200, { ok: true })
    if (a === "transactions") {
      if (method === "GET" && !b) {
        const cid = url.searchParams.get("client_orderid")
        return sendJson(res, 200, cid === null ? control.transactions() : control.byClientOrderId(cid))
      }
      if (method === "GET" && b && !c) {
        const t = control.transaction(b)
        return t ? sendJson(res, 200, t) : sendJson(res, 404, { error: `unknown orderid ${b}` })
      }
      if (method === "POST" && b && c === "force") {
        return sendJson(res, 200, control.forceStatus(b, str(body.status) as never, str(body.message)))
      }
      if (method === "POST" && b && c === "chargeback") return sendJson(res, 200, control.chargeback(b, str(body.amount)))
      if (method === "POST" && b && (c === "dispute" || (DISPUTE_KINDS as readonly string[]).includes(c ?? ""))) {
        const kind = (c === "dispute" ? str(body.kind) : c) as DisputeKind
        if (!(DISPUTE_KINDS as readonly string[]).includes(kind ?? "")) return sendJson(res, 400, { error: `kind must be one of ${DISPUTE_KINDS.join(", ")}` })
        return sendJson(res, 200, control.dispute(b, kind, { amount: str(body.amount), reasonCode: str(body.reason_code) }))
      }
    }
    if (method === "POST" && a === "settle") return sendJson(res, 200, { settled: control.settle(str(body.orderid)) })
    if (method === "GET" && a === "callbacks") return sendJson(res, 200, control.callbacks())
    if (method === "GET" && (a === "stats" || a === "connections")) {
      return sendJson(res, 200, { connections: control.connections(), requests: control.requests() })
    }
    if (method === "POST" && a === "reset") {
      control.reset()
      return sendJson(res, 200, { ok: true })
    }
    if (a === "faults") {
      if (method === "GET") return sendJson(res, 200, control.faults())
      if (method === "POST") return sendJson(res, 200, control.addFault((body.rule ?? body) as never))
      if (method === "DELETE" && b) return sendJson(res, 200, { removed: control.removeFault(Number(b)) })
      if (method === "DELETE") {
        control.clearFaults()
        return sendJson(res, 200, { ok: true })
      }
    }
    if (a === "processing") {
      if (method === "GET" && !b) return sendJson(res, 200, control.processing())
      if (method === "POST" && b === "finish") {
        const id = body.id === undefined || body.id === null ? undefined : Number(body.id)
        if (id !== undefined && !Number.isInteger(id)) return sendJson(res, 400, { error: "id must be an integer" })
        return sendJson(res, 200, { finished: control.finishProcessing(id) })
      }
    }
    if (method === "POST" && a === "card-refs" && b && c === "behaviour") {
      control.setCardRefBehaviour(b, str(body.behaviour) as never)
      return sendJson(res, 200, { ok: true })
    }
    if (method === "POST" && a === "eligibility") {
      if (typeof body.eligible !== "boolean") return sendJson(res, 400, { error: "eligible must be true or false" })
      control.setCardEligibility({ cardRefId: str(body.cardRefId), bin: str(body.bin), lastFour: str(body.lastFour) }, body.eligible)
      return sendJson(res, 200, { ok: true })
    }
    if (a === "balances") {
      if (method === "GET") return sendJson(res, 200, control.balance(b))
      if (method === "POST") {
        if (body.access !== undefined && typeof body.access !== "boolean") return sendJson(res, 400, { error: "access must be true or false" })
        return sendJson(res, 200, control.setBalance(b, {
          amount: str(body.amount), shortTermHolds: str(body.shortTermHolds), rollingReserve: str(body.rollingReserve),
          currency: str(body.currency), access: body.access as boolean | undefined,
        }))
      }
    }
    if (a === "recurring-payments" && b) {
      if (method === "GET" && !c) return sendJson(res, 200, control.recurringPayment(b))
      if (method === "POST" && c === "charge") return sendJson(res, 200, control.runRecurringCharge(b, (str(body.outcome) ?? "approved") as never))
    }
    return sendJson(res, 404, { error: `no steering route for ${method} ${url.pathname}` })
  } catch (e) {
    return sendJson(res, 400, { error: e instanceof Error ? e.message : String(e) })
  }
}

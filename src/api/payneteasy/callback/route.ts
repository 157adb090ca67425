/**
 * The gateway's server callback: `GET|POST {backendUrl}/payneteasy/callback` (the provider sends this address as
 * `server_callback_url`).
 *
 * verify control (in memory, then with the key of the session's or row's own registration: core/callbacks/accept.ts) →
 * record in the callback log (unique per source/orderid/client_orderid/type/status/event_key, see src/core/callbacks/
 * params.ts `eventKey`) → 200, and queue `payneteasy.callback.received`, delivered after the plugin's
 * `callbackProcessingDelayMs` (few emits for many callbacks: core/callbacks/callback-queue.ts).
 * Processing (STATUS confirmation, order creation, failure, later events) happens in the subscriber, so the gateway
 * gets its 200 quickly and stops retrying (it retries a non-200 for 14 days).
 * - payment sessions (`payses_…`), payouts (`pnepo_…`) and saved-card verifications (`pnecard_…`) all come here; the
 *   kind of client_orderid picks the verification and the processing (core/callbacks/order-kinds.ts).
 * - a genuine callback for a session Medusa no longer has (verifies under one of our providers) → 200 and recorded;
 *   processing flags it for a person when it is approved (process-callback.ts).
 * - malformed → 400, forged control → 403, unknown order that verifies under no provider → 404; nothing is recorded.
 * - a duplicate → 200 and nothing new; if the first copy's processing failed, it is queued again (processing is
 *   idempotent, so this only helps recovery; a copy never processed at all is picked up by the reconciliation tick).
 *
 * Refusing garbage is cheap (bench "forged callbacks/s"): before any database work, the control is checked in memory
 * with the control key of every PaynetEasy registration (core/callbacks/accept.ts), and one that verifies under none is
 * refused at once.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { Logger } from "@medusajs/framework/types"
import { acceptGatewayMessage, readGatewayMessage } from "../../../core/callbacks/accept"
import { queueCallbackProcessing } from "../../../core/callbacks/callback-queue"
import { scrub } from "../../../gateway/scrub"
import { annotateCurrentSpan } from "../../../core/telemetry/otel"
import { recordCallbackReceived } from "../../../core/telemetry/metrics"
import { PAYNETEASY_MODULE } from "../../../modules/payneteasy"
import type PaynetEasyModuleService from "../../../modules/payneteasy/service"

export const AUTHENTICATE = false

/**
 * A plain-text answer, written directly rather than through express's res.send (content-type parsing, an ETag hash of
 * the body, a freshness check): the gateway reads only the status, and a flood of callbacks, forged or genuine, should
 * cost as little per answer as /health's.
 */
function answer(res: MedusaResponse, status: number, text: string) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

/** The refusal a rejected callback's answer stands for (metric `payneteasy.callback.received`). */
const REFUSAL = { 400: "malformed", 403: "forged", 404: "unknown_order" } as const

async function handle(req: MedusaRequest, res: MedusaResponse) {
  const url = req.originalUrl ?? req.url ?? ""
  const rawQuery = url.includes("?") ? url.slice(url.indexOf("?") + 1) : ""
  const read = readGatewayMessage(
    req.scope,
    { query: req.query, body: req.method === "POST" ? req.body : undefined, rawQuery, headers: req.headers as Record<string, unknown> },
    "callback"
  )
  const accepted = read.ok ? await acceptGatewayMessage(req.scope, read, "callback") : read
  if (!accepted.ok) {
    recordCallbackReceived("refused", REFUSAL[accepted.status])
    answer(res, accepted.status, accepted.message)
    return
  }
  const { row, created } = accepted
  recordCallbackReceived(created ? "verified" : "duplicate")
  annotateCurrentSpan({ "payneteasy.callback.id": row.id, "payneteasy.callback.verdict": created ? "verified" : "duplicate" })
  // A duplicate of a callback whose processing failed queues it again; one still `received` is in flight (or will be
  // picked up by the reconciliation tick if its instance died), so it is not queued twice. The answer does not wait
  // for the queueing: the recorded row is what the 200 stands for, and a row whose emit failed is processed by the
  // reconciliation tick (callback-queue.ts).
  if (created || row.outcome === "failed") {
    const delayMs = req.scope.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE).callbackProcessingDelayMs()
    const logger = req.scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    queueCallbackProcessing(req.scope.resolve(Modules.EVENT_BUS), { id: row.id, delayMs }).catch((e) =>
      logger.warn(`payneteasy: callback ${row.id} is recorded but its processing could not be queued (${scrub(String((e as Error)?.message ?? e))}); the reconciliation tick processes it`)
    )
  }
  answer(res, 200, "OK")
}

export const GET = handle
export const POST = handle

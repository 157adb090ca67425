/**
 * The gateway's server callback: `GET|POST {backendUrl}/payneteasy/callback` (the provider sends this address as
 * `server_callback_url`).
 *
 * verify control (in memory, then with the key of the session's or row's own registration: callbacks/accept.ts) →
 * record in the callback log (unique per source/orderid/client_orderid/type/status/event_key, see src/callbacks/
 * params.ts `eventKey`) → 200, and queue `payneteasy.callback.received`, delivered after the plugin's
 * `callbackProcessingDelayMs` (few emits for many callbacks: workflows/payneteasy/callback-queue.ts).
 * Processing (STATUS confirmation, order creation, failure, later events) happens in the subscriber, so the gateway
 * gets its 200 quickly and stops retrying (it retries a non-200 for 14 days).
 * - payment sessions (`payses_…`), payouts (`pnepo_…`) and saved-card verifications (`pnecard_…`) all come here; the
 *   kind of client_orderid picks the verification and the processing (callbacks/order-kinds.ts).
 * - a genuine callback for a session Medusa no longer has (verifies under one of our providers) → 200 and recorded;
 *   processing flags it for a person when it is approved (process-callback.ts).
 * - malformed → 400, forged control → 403, unknown order that verifies under no provider → 404; nothing is recorded.
 * - a duplicate → 200 and nothing new; if the first copy's processing failed, it is queued again (processing is
 *   idempotent, so this only helps recovery; a copy never processed at all is picked up by the reconciliation tick).
 *
 * Refusing garbage is cheap (bench: "forged callbacks/s"): before any database work, the control is checked in memory
 * with the control key of every PaynetEasy registration (gateway-adapter/callback-keys.ts) — for payment sessions,
 * payouts and card verifications alike. One that verifies under none is refused at once — 403 when its client_orderid
 * has the shape of one of ours (callbacks/order-kinds.ts `looksOurs`), 404 otherwise — without looking anything up,
 * so a flood of forged callbacks costs hashing, not queries (and the answer does not tell whether the order exists).
 * This only short-circuits: acceptGatewayMessage still verifies every survivor with the key of its own session's or
 * row's registration.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { Logger } from "@medusajs/framework/types"
import { coreFields, readParams, type CallbackParams } from "../../../callbacks/params"
import { acceptGatewayMessage } from "../../../callbacks/accept"
import { looksOurs } from "../../../callbacks/order-kinds"
import { registrationVerifying } from "../../../gateway-adapter/callback-keys"
import { queueCallbackProcessing } from "../../../workflows/payneteasy/callback-queue"
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

async function handle(req: MedusaRequest, res: MedusaResponse) {
  const url = req.originalUrl ?? req.url ?? ""
  const rawQuery = url.includes("?") ? url.slice(url.indexOf("?") + 1) : ""
  let early: { params: CallbackParams; clientOrderId: string } | undefined
  try {
    const params = readParams(req.query, req.method === "POST" ? req.body : undefined)
    early = { params, clientOrderId: coreFields(params, { requireType: true }).clientOrderId }
  } catch {
    early = undefined // malformed: acceptGatewayMessage answers 400 with the reason
  }
  if (early && !registrationVerifying(req.scope.resolve("configModule"), early.params)) {
    const ours = looksOurs(early.clientOrderId)
    answer(res, ours ? 403 : 404, ours ? "control does not verify" : "unknown order, and the control verifies under no PaynetEasy provider")
    return
  }
  const accepted = await acceptGatewayMessage(
    req.scope,
    {
      query: req.query,
      body: req.method === "POST" ? req.body : undefined,
      rawQuery,
      headers: req.headers as Record<string, unknown>,
    },
    "callback"
  )
  if (!accepted.ok) {
    answer(res, accepted.status, accepted.message)
    return
  }
  const { row, created } = accepted
  // A duplicate of a callback whose processing failed queues it again; one still `received` is in flight (or will be
  // picked up by the reconciliation tick if its instance died), so it is not queued twice. The answer does not wait
  // for the queueing: the recorded row is what the 200 stands for, and a row whose emit failed is processed by the
  // reconciliation tick (callback-queue.ts).
  if (created || row.outcome === "failed") {
    const delayMs = req.scope.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE).callbackProcessingDelayMs()
    const logger = req.scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    queueCallbackProcessing(req.scope.resolve(Modules.EVENT_BUS), { id: row.id, delayMs }).catch((e) =>
      logger.warn(`payneteasy: callback ${row.id} is recorded but its processing could not be queued (${(e as Error)?.message ?? e}); the reconciliation tick processes it`)
    )
  }
  answer(res, 200, "OK")
}

export const GET = handle
export const POST = handle

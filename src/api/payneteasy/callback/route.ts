/**
 * The gateway's server callback: `GET|POST {backendUrl}/payneteasy/callback` (the provider sends this address as
 * `server_callback_url`).
 *
 * verify control (through the provider) → record in the callback log (unique per source/orderid/client_orderid/
 * type/status/event_key, see src/callbacks/params.ts `eventKey`) → emit `payneteasy.callback.received` → 200. Processing
 * (STATUS confirmation, order creation, failure, later events) happens in the subscriber, so the gateway gets its 200
 * quickly and stops retrying (it retries a non-200 for 14 days).
 * - a genuine callback for a session Medusa no longer has (verifies under one of our providers) → 200 and recorded;
 *   processing flags it for a person when it is approved (process-callback.ts).
 * - malformed → 400, forged control → 403, unknown order that verifies under no provider → 404; nothing is recorded.
 * - a duplicate → 200 and nothing new; if the first copy's processing failed, it is queued again (processing is
 *   idempotent, so this only helps recovery; a copy never processed at all is picked up by the reconciliation tick).
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { Modules } from "@medusajs/framework/utils"
import { acceptGatewayMessage } from "../../../callbacks/accept"
import { CALLBACK_RECEIVED } from "../../../workflows/payneteasy/process-callback"

export const AUTHENTICATE = false

async function handle(req: MedusaRequest, res: MedusaResponse) {
  const url = req.originalUrl ?? req.url ?? ""
  const accepted = await acceptGatewayMessage(
    req.scope,
    {
      query: req.query,
      body: req.method === "POST" ? req.body : undefined,
      rawBody: (req as MedusaRequest & { rawBody?: Buffer }).rawBody,
      rawQuery: url.includes("?") ? url.slice(url.indexOf("?") + 1) : "",
      headers: req.headers as Record<string, unknown>,
    },
    "callback"
  )
  if (!accepted.ok) {
    res.status(accepted.status).type("text/plain").send(accepted.message)
    return
  }
  const { row, created } = accepted
  // A duplicate of a callback whose processing failed queues it again; one still `received` is in flight (or will be
  // picked up by the reconciliation tick if its instance died), so it is not queued twice.
  if (created || row.outcome === "failed") {
    await req.scope.resolve(Modules.EVENT_BUS).emit({ name: CALLBACK_RECEIVED, data: { id: row.id } })
  }
  res.status(200).type("text/plain").send("OK")
}

export const GET = handle
export const POST = handle

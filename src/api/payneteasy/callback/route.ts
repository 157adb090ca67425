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
 *
 * Refusing garbage is cheap (bench: "forged callbacks/s"): before any database work, the control is checked against
 * every PaynetEasy registration in memory (`verifiesUnderSomeProvider`). One that verifies under none is refused at
 * once — 403 when its client_orderid has the shape of one of our sessions, 404 otherwise — without looking the session
 * up, so a flood of forged callbacks costs hashing, not queries (and the answer no longer tells whether a session
 * exists). This only short-circuits: acceptGatewayMessage still verifies every survivor under its session's provider.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { sessionIdFromClientOrderId } from "../../../payment-data/client-order-id"
import { coreFields, readParams, type CallbackParams } from "../../../callbacks/params"
import { acceptGatewayMessage } from "../../../callbacks/accept"
import { isPayoutClientOrderId } from "../../../callbacks/verify-payout"
import { isRecurringClientOrderId } from "../../../callbacks/verify-recurring"
import { CALLBACK_RECEIVED } from "../../../workflows/payneteasy/process-callback"
import { paramsForVerification, PROVIDER_PREFIX } from "../../../callbacks/verify"

export const AUTHENTICATE = false

/** The PaynetEasy registrations, listed once a minute (they only change when Medusa restarts or one is disabled). */
const PROVIDERS_TTL_MS = 60_000
const providerCache = new WeakMap<object, { at: number; ids: Promise<string[]> }>()

function payneteasyProviderIds(container: MedusaContainer): Promise<string[]> {
  const paymentModule = container.resolve(Modules.PAYMENT)
  const cached = providerCache.get(paymentModule)
  if (cached && Date.now() - cached.at < PROVIDERS_TTL_MS) return cached.ids
  const ids = paymentModule
    .listPaymentProviders({}, { select: ["id"] })
    .then((list) => list.map((p) => p.id).filter((id) => id.startsWith(PROVIDER_PREFIX)))
  ids.catch(() => providerCache.delete(paymentModule))
  providerCache.set(paymentModule, { at: Date.now(), ids })
  return ids
}

/** Whether the control verifies under at least one PaynetEasy registration (in memory: the providers hash it). */
async function verifiesUnderSomeProvider(container: MedusaContainer, params: CallbackParams, rawData: string | Buffer, headers: Record<string, unknown>): Promise<boolean> {
  const paymentModule = container.resolve(Modules.PAYMENT)
  const asked = paramsForVerification(params, undefined).params
  for (const provider of await payneteasyProviderIds(container)) {
    try {
      const result = await paymentModule.getWebhookActionAndData({
        provider,
        payload: { data: asked, rawData, headers: headers as Record<string, string> },
      })
      if (result && result.action !== "not_supported") return true
    } catch {
      // a provider that cannot read the message has not vouched for it
    }
  }
  return false
}

async function handle(req: MedusaRequest, res: MedusaResponse) {
  const url = req.originalUrl ?? req.url ?? ""
  const rawQuery = url.includes("?") ? url.slice(url.indexOf("?") + 1) : ""
  const rawBody = (req as MedusaRequest & { rawBody?: Buffer }).rawBody
  let early: { params: CallbackParams; clientOrderId: string } | undefined
  try {
    const params = readParams(req.query, req.method === "POST" ? req.body : undefined)
    early = { params, clientOrderId: coreFields(params, { requireType: true }).clientOrderId }
  } catch {
    early = undefined // malformed: acceptGatewayMessage answers 400 with the reason
  }
  // Payout and recurring-charge callbacks (client_orderid = payout / recurring payment id) are verified by accept.ts
  // with the key of the registration that made them; the providers' webhook check knows only payment sessions.
  if (early && !isPayoutClientOrderId(early.clientOrderId) && !isRecurringClientOrderId(early.clientOrderId) && !(await verifiesUnderSomeProvider(req.scope, early.params, rawBody && rawBody.length ? rawBody : rawQuery, req.headers as Record<string, unknown>))) {
    const ours = sessionIdFromClientOrderId(early.clientOrderId) !== undefined
    res
      .status(ours ? 403 : 404)
      .type("text/plain")
      .send(ours ? "control does not verify" : "unknown order, and the control verifies under no PaynetEasy provider")
    return
  }
  const accepted = await acceptGatewayMessage(
    req.scope,
    {
      query: req.query,
      body: req.method === "POST" ? req.body : undefined,
      rawBody,
      rawQuery,
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

/**
 * The shared front half of the callback and return routes: read the request, authenticate it through the provider
 * (verify.ts), and record it in the callback log (together with the others of this event-loop turn: record-batch.ts).
 * Framework-level only (container + plain values), so the routes stay thin and this is testable without HTTP.
 *
 * Server callbacks: first the control is checked in memory with the control key of every PaynetEasy registration in
 * medusa-config (core/connection/callback-keys.ts), for payment sessions, payouts and card verifications alike. One that
 * verifies under none is refused at once, without looking anything up: 403 when its client_orderid has the shape of
 * one of ours (order-kinds.ts `looksOurs`), 404 otherwise. So a flood of forged callbacks costs hashing, not queries,
 * and the answer does not tell whether the order exists (bench "forged callbacks/s").
 * A callback for a payment session, the common case, then takes one round trip: the insert itself requires the
 * session to be one of a registration that verified it (recordSessionCallbacks). Whatever that does not record (no
 * such session, another registration's session) takes the general path, which reads the session first and tells those
 * cases apart, as do payouts and card verifications (their row's registration). The return route takes the general
 * path always: it shows the session.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { PAYNETEASY_MODULE } from "../../modules/payneteasy"
import type PaynetEasyModuleService from "../../modules/payneteasy/service"
import type { CallbackRow } from "../../modules/payneteasy/service"
import { sessionIdFromClientOrderId } from "../checkout/client-order-id"
import { coreFields, eventKey, MalformedCallbackError, readParams, storableParams, type CallbackCore } from "./params"
import { isVerified, paramsForVerification, verifyMessage, type VerifiedMessage, type VerifyFailure } from "./verify"
import { looksOurs, rowKindOf, verifyRowMessage } from "./order-kinds"
import { recordForSessionInTurn, recordInTurn } from "./record-batch"
import { registrationsVerifying } from "../connection/callback-keys"
import { verifiedWebhookAction } from "../checkout/webhook"

const rowVerified = (v: { providerId: string } | VerifyFailure): VerifiedMessage | VerifyFailure =>
  "providerId" in v
    ? { providerId: v.providerId, session: undefined, result: { action: "not_supported" }, actionApplies: false }
    : v

export type GatewayRequest = {
  query: unknown
  body: unknown
  /** The query string as sent: Medusa's webhook contract passes the provider `rawData`; ours reads only the parsed
   *  fields (webhook.ts), so a POSTed form's raw body is not kept (see api/middlewares.ts). */
  rawQuery?: string
  headers: Record<string, unknown>
}

export type Rejected = { ok: false; status: 400 | 403 | 404; message: string }
/** The message is in the callback log: its row (what the routes read of it), and whether this request recorded it. */
export type Recorded = { ok: true; row: Pick<CallbackRow, "id" | "outcome">; created: boolean }
/** Recorded, with what verified it (the general path, which the return route always takes). */
export type Accepted = Recorded & { core: CallbackCore; verified: VerifiedMessage }

const forged: Rejected = { ok: false, status: 403, message: "control does not verify" }
const unknownOrder: Rejected = { ok: false, status: 404, message: "unknown order, and the control verifies under no PaynetEasy provider" }

/**
 * A gateway message read, and for a server callback checked in memory (see the header): what acceptGatewayMessage
 * takes. Synchronous, so that the callback route refuses a malformed or forged callback without waiting for anything.
 */
export type ReadMessage = {
  ok: true
  req: GatewayRequest
  params: Record<string, string>
  core: CallbackCore
  /** server callbacks: the medusa-config registrations whose control key verifies it (never empty) */
  verifying?: string[]
}

export function readGatewayMessage(container: MedusaContainer, req: GatewayRequest, source: "callback" | "return"): ReadMessage | Rejected {
  let params: Record<string, string>
  let core: CallbackCore
  try {
    params = readParams(req.query, req.body)
    core = coreFields(params, { requireType: source === "callback" })
  } catch (e) {
    if (e instanceof MalformedCallbackError) {
      return { ok: false, status: 400, message: `malformed ${source}: ${e.message}` }
    }
    throw e
  }
  if (source === "return") return { ok: true, req, params, core }
  const verifying = registrationsVerifying(container.resolve("configModule"), params)
  if (verifying.length === 0) {
    return looksOurs(core.clientOrderId) ? forged : unknownOrder
  }
  return { ok: true, req, params, core, verifying }
}

/** Verifies a message read by readGatewayMessage with its own registration's key and records it in the callback log. */
export function acceptGatewayMessage(container: MedusaContainer, message: ReadMessage, source: "callback"): Promise<Rejected | Recorded>
export function acceptGatewayMessage(container: MedusaContainer, message: ReadMessage, source: "return"): Promise<Rejected | Accepted>
export async function acceptGatewayMessage(
  container: MedusaContainer,
  { req, params, core, verifying }: ReadMessage,
  source: "callback" | "return"
): Promise<Rejected | Recorded | Accepted> {
  if (source === "callback" && verifying) {
    const recorded = await recordedForVerifyingSession(container, core, params, verifying)
    if (recorded) return recorded
  }
  const rawData = req.rawQuery ?? ""
  // Payouts and card verifications (client_orderid = the plugin row's id) are verified with the control key of the
  // registration that row records (order-kinds.ts); payment sessions through their provider (verify.ts).
  const kind = rowKindOf(core.clientOrderId)
  const verified = kind
    ? rowVerified(await verifyRowMessage(container, kind, core.clientOrderId, params))
    : await verifyMessage(container, core, params, rawData, req.headers)
  if (!isVerified(verified)) {
    return verified.reason === "forged" ? forged : unknownOrder
  }
  const service = container.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)
  const { row, created } = await recordInTurn(service, {
    ...fieldsOf(source, core, params, verified.actionApplies ? verified.result.action : null),
    provider_id: verified.providerId,
    session_id: verified.session?.id ?? sessionIdFromClientOrderId(core.clientOrderId) ?? null,
  })
  return { ok: true, core, verified, row, created }
}

/** The callback-log columns a message gives, whatever verifies it. */
const fieldsOf = (source: "callback" | "return", core: CallbackCore, params: Record<string, string>, action: string | null) => ({
  source,
  orderid: core.orderid,
  client_orderid: core.clientOrderId,
  type: core.type,
  status: core.status,
  event_key: eventKey(core, params),
  amount: core.amount ?? null,
  currency: core.currency ?? null,
  error_code: core.errorCode ?? null,
  error_message: core.errorMessage ?? null,
  action,
  params: storableParams(params),
  received_at: new Date(),
})

/**
 * A server callback recorded in one round trip, when its session is one of a registration that verifies it (see the
 * header); undefined when that recorded nothing. The action is the provider's mapping (webhook.ts), as the general
 * path's verification gives it: for the initial transaction only.
 */
async function recordedForVerifyingSession(
  container: MedusaContainer,
  core: CallbackCore,
  params: Record<string, string>,
  verifying: string[]
): Promise<Recorded | undefined> {
  const sessionId = sessionIdFromClientOrderId(core.clientOrderId)
  if (!sessionId || rowKindOf(core.clientOrderId)) return undefined
  const action = paramsForVerification(params, undefined).actionApplies ? verifiedWebhookAction(params).action : null
  const service = container.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)
  const recorded = await recordForSessionInTurn(service, { ...fieldsOf("callback", core, params, action), session_id: sessionId, verifying })
  return recorded ? { ok: true, ...recorded } : undefined
}

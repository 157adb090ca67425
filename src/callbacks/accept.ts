/**
 * The shared front half of the callback and return routes: read the request, authenticate it through the provider
 * (verify.ts), and record it in the callback log (together with the others of this event-loop turn: record-batch.ts).
 * Framework-level only (container + plain values), so the routes stay thin and this is testable without HTTP.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { PAYNETEASY_MODULE } from "../modules/payneteasy"
import type PaynetEasyModuleService from "../modules/payneteasy/service"
import type { CallbackRow } from "../modules/payneteasy/service"
import { sessionIdFromClientOrderId } from "../payment-data/client-order-id"
import { coreFields, eventKey, MalformedCallbackError, readParams, storableParams, type CallbackCore } from "./params"
import { isVerified, verifyMessage, type VerifiedMessage, type VerifyFailure } from "./verify"
import { rowKindOf, verifyRowMessage } from "./order-kinds"
import { recordInTurn } from "./record-batch"

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
export type Accepted = { ok: true; core: CallbackCore; verified: VerifiedMessage; row: CallbackRow; created: boolean }

export async function acceptGatewayMessage(
  container: MedusaContainer,
  req: GatewayRequest,
  source: "callback" | "return"
): Promise<Rejected | Accepted> {
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
  const rawData = req.rawQuery ?? ""
  // Payouts and card verifications (client_orderid = the plugin row's id) are verified with the control key of the
  // registration that row records (order-kinds.ts); payment sessions through their provider (verify.ts).
  const kind = rowKindOf(core.clientOrderId)
  const verified = kind
    ? rowVerified(await verifyRowMessage(container, kind, core.clientOrderId, params))
    : await verifyMessage(container, core, params, rawData, req.headers)
  if (!isVerified(verified)) {
    return verified.reason === "forged"
      ? { ok: false, status: 403, message: "control does not verify" }
      : { ok: false, status: 404, message: "unknown order, and the control verifies under no PaynetEasy provider" }
  }
  const service = container.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)
  const { row, created } = await recordInTurn(service, {
    source,
    provider_id: verified.providerId,
    session_id: verified.session?.id ?? sessionIdFromClientOrderId(core.clientOrderId) ?? null,
    orderid: core.orderid,
    client_orderid: core.clientOrderId,
    type: core.type,
    status: core.status,
    event_key: eventKey(core, params),
    amount: core.amount ?? null,
    currency: core.currency ?? null,
    error_code: core.errorCode ?? null,
    error_message: core.errorMessage ?? null,
    action: verified.actionApplies ? verified.result.action : null,
    params: storableParams(params),
    received_at: new Date(),
  })
  return { ok: true, core, verified, row, created }
}

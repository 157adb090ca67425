/**
 * Authenticating a gateway message (server callback or shopper return) without holding any gateway secret here.
 *
 * The control key lives only in the provider's options. So we find the payment session from the message's
 * `client_orderid` (= session id, or `<session id>-a<n>`), and have THAT session's provider verify `control` and map
 * the message, as its `getWebhookActionAndData` does: for a registration in medusa-config, in memory with its key
 * (core/connection/callback-keys.ts) and the provider's own mapping (core/checkout/webhook.ts); for any other,
 * through the payment module (`paymentModule.getWebhookActionAndData`). A control that does not verify is
 * `not_supported` (a forged message never throws).
 *
 * The provider maps only the initial transaction (type sale / preauth) and answers `not_supported` for everything
 * else too (a return's browser POST may carry no type; a chargeback or reversal is a later type). The control covers
 * status + orderid + client_orderid + key and NOT the type (gateway notes §7, verified), so for those messages we ask
 * the provider about a copy whose `type` is the session's own transaction type: the control verdict is the same, and
 * the provider's mapped action is then ignored by the caller (later events are never turned into money movements).
 *
 * When no session matches (deleted after the cart changed, or not ours), every registered PaynetEasy provider is
 * asked: a message that verifies under one of them is genuine — the gateway knows an order we no longer have, which a
 * person must look at — and one that verifies under none is forged or not ours.
 */
import type { MedusaContainer, WebhookActionResult } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { sessionIdFromClientOrderId } from "../checkout/client-order-id"
import type { CallbackCore, CallbackParams } from "./params"
import { perTurn } from "./per-turn"

import { PROVIDER_PREFIX } from "../connection/registration"
import { verifiesUnder } from "../connection/callback-keys"
import { verifiedWebhookAction } from "../checkout/webhook"
import { isInitialTransactionType } from "../../gateway/statuses"

export { PROVIDER_PREFIX }

export type SessionInfo = {
  id: string
  provider_id: string
  status: string
  amount: unknown
  currency_code: string
  data: Record<string, unknown>
  payment_collection_id: string
}

export type VerifiedMessage = {
  providerId: string
  session: SessionInfo | undefined
  result: WebhookActionResult
  /** true when the provider's action describes this very message (an initial sale / preauth callback) */
  actionApplies: boolean
}

/** The params the provider is asked to verify: the message itself, or (for a later / typeless one) a same-control copy. */
export function paramsForVerification(
  params: CallbackParams,
  sessionType: string | undefined
): { params: CallbackParams; actionApplies: boolean } {
  if (isInitialTransactionType(params.type)) {
    return { params, actionApplies: true }
  }
  return { params: { ...params, type: sessionType && isInitialTransactionType(sessionType) ? sessionType : "sale" }, actionApplies: false }
}

export type VerifyFailure = { reason: "forged" | "unknown_order" }

export async function findSession(container: MedusaContainer, sessionId: string | undefined): Promise<SessionInfo | undefined> {
  if (!sessionId) return undefined
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "provider_id", "status", "amount", "currency_code", "data", "payment_collection_id"],
    filters: { id: sessionId },
  })
  const session = data[0] as SessionInfo | undefined
  return session && session.provider_id.startsWith(PROVIDER_PREFIX) ? session : undefined
}

type Raw = { raw(sql: string, params: unknown[]): Promise<{ rows: SessionInfo[] }> }

/**
 * The sessions gateway messages name, read for verification: one indexed read of the payment module's table for all
 * the messages of an event-loop turn (per-turn.ts). Shopper returns and the callbacks the route's one-statement path
 * does not record (accept.ts) come here, so it skips Query's graph machinery (remote joiner, the module's ORM), once
 * the largest share of the callback route's CPU in a profile (bench "callbacks/s"). Same shape and the same filter as
 * findSession (not deleted, one of our providers).
 */
const readSessionInTurn = perTurn<Raw, string, SessionInfo | undefined>(async (knex, ids) => {
  const { rows } = await knex.raw(
    `select id, provider_id, status, amount, currency_code, data, payment_collection_id
     from payment_session where id = any(?) and deleted_at is null`,
    [[...new Set(ids)]]
  )
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.map((id) => {
    const session = byId.get(id)
    return session && session.provider_id.startsWith(PROVIDER_PREFIX) ? { ...session } : undefined
  })
})

async function sessionForVerification(container: MedusaContainer, sessionId: string | undefined): Promise<SessionInfo | undefined> {
  if (!sessionId) return undefined
  return readSessionInTurn(container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Raw, sessionId)
}

async function ask(
  container: MedusaContainer,
  providerId: string,
  params: CallbackParams,
  rawData: string | Buffer,
  headers: Record<string, unknown>
): Promise<WebhookActionResult | undefined> {
  // A registration from medusa-config (the usual case): its key checks the control in memory (callback-keys.ts) and
  // the provider's own mapping answers (webhook.ts), as the provider's getWebhookActionAndData would, without the
  // payment module's call wrapper around it (a forked entity manager and a container lookup per callback: bench
  // "callbacks/s"). Any other registration is asked through the payment module.
  const verified = verifiesUnder(container.resolve("configModule"), providerId, params)
  if (verified !== undefined) {
    const result = verified ? verifiedWebhookAction(params) : undefined
    return result && result.action !== "not_supported" ? result : undefined
  }
  const paymentModule = container.resolve(Modules.PAYMENT)
  try {
    const result = await paymentModule.getWebhookActionAndData({
      provider: providerId,
      payload: { data: params, rawData, headers: headers as Record<string, string> },
    })
    return result && result.action !== "not_supported" ? result : undefined
  } catch {
    // A provider that throws on a message it cannot read has not vouched for it.
    return undefined
  }
}

export async function verifyMessage(
  container: MedusaContainer,
  core: CallbackCore,
  params: CallbackParams,
  rawData: string | Buffer,
  headers: Record<string, unknown>
): Promise<VerifiedMessage | VerifyFailure> {
  const session = await sessionForVerification(container, sessionIdFromClientOrderId(core.clientOrderId))
  if (session) {
    const asked = paramsForVerification(params, session.data?.transactionType as string | undefined)
    const result = await ask(container, session.provider_id, asked.params, rawData, headers)
    return result
      ? { providerId: session.provider_id, session, result, actionApplies: asked.actionApplies }
      : { reason: "forged" }
  }
  const asked = paramsForVerification(params, undefined)
  const paymentModule = container.resolve(Modules.PAYMENT)
  const providers = (await paymentModule.listPaymentProviders({})).filter((p) =>
    p.id.startsWith(PROVIDER_PREFIX)
  )
  for (const provider of providers) {
    const result = await ask(container, provider.id, asked.params, rawData, headers)
    if (result) {
      return { providerId: provider.id, session: undefined, result, actionApplies: asked.actionApplies }
    }
  }
  return { reason: "unknown_order" }
}

export function isVerified(v: VerifiedMessage | VerifyFailure): v is VerifiedMessage {
  return "result" in v
}

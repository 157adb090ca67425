/**
 * Getting the shopper to pay: the session's start (hosted: sale-form / preauth-form registration; direct: nothing
 * sent yet) and the direct flow's card step (sale / preauth with the card, card data only in memory), then the
 * session's status by STATUS — the shopper's redirect is never proof.
 * Reliability (send once, STATUS after a lost reply): src/core/connection/gateway-ops.ts.
 */
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { isDeclined } from "../../gateway/statuses"
import { isFinal, isNotFound, maybeSent, pollStatus, sendMoneyRequest } from "../connection"
import { ownedCallbackUrl } from "./callback-owner"
import { clientOrderIdFor } from "./client-order-id"
import type { SessionData } from "./session-data"
import { providerKeysCleared } from "./provider-keys"
import { toGatewayAmount, toGatewayCurrency } from "./amounts"
import { parseCard } from "./card"
import type { ProviderContext } from "./context"
import { wrap } from "./errors"
import { callGateway, gatewayValue } from "./gateway-call"
import { customerPayer, payerOf, storefrontSafe, type CustomerLike, type Payer } from "./payer"
import { cardPaymentFields, hostedPaymentFields, statusFields, type OrderRequest } from "../../gateway/requests"
import { orderIdOf, redirectToOf, redirectUrlOf } from "../../gateway/replies"
import { fromStatus, stripOutcome } from "./session-outcome"
import { pluginCallbackUrl, pluginReturnUrl } from "../connection/plugin-urls"

type Data = Record<string, unknown>

export const DEFAULT_ORDER_DESCRIPTION = "Your order"
type Outcome = { data: Data; status: PaymentSessionStatus }

function orderRequest(ctx: ProviderContext, data: SessionData, payer: Payer): OrderRequest {
  const backend = ctx.options.backendUrl.replace(/\/+$/, "")
  return {
    clientOrderId: data.clientOrderId,
    // what the shopper reads on the gateway's page: the shop's words, never an internal id
    description: ctx.options.orderDescription ?? DEFAULT_ORDER_DESCRIPTION,
    payer,
    redirectUrl: pluginReturnUrl(backend),
    // tagged, so that a callback for this order still proves it ours once Medusa has deleted the session (callback-owner.ts)
    callbackUrl: ownedCallbackUrl(pluginCallbackUrl(backend), ctx.options.controlKey, data.clientOrderId),
  }
}

type SessionStart = { amount: BigNumberInput; currency_code: string; data?: Data; context?: { idempotency_key?: string; customer?: unknown } }

/** A new session's data (first attempt): its id, client_orderid, exact gateway amount and currency, flow and type. */
export function newSessionData(ctx: ProviderContext, input: SessionStart, transactionType: SessionData["transactionType"]): SessionData {
  const sessionId = String(input.data?.session_id ?? input.context?.idempotency_key ?? "")
  const currency = toGatewayCurrency(input.currency_code)
  return {
    session_id: sessionId,
    clientOrderId: clientOrderIdFor(sessionId, 1),
    attempt: 1,
    flow: ctx.options.flow,
    transactionType,
    amount: toGatewayAmount(input.amount, currency),
    currency,
    storefrontReturnUrl: ctx.options.storefrontReturnUrl ?? null,
  }
}

export async function startSession(
  ctx: ProviderContext,
  input: SessionStart
): Promise<Outcome & { id: string }> {
  const base = newSessionData(ctx, input, ctx.options.capture === "automatic" ? "sale" : "preauth")
  const currency = base.currency
  const customer = input.context?.customer as CustomerLike | undefined
  // Medusa stores {...storefront data, ...this output}: card-like storefront keys are cleared, `payer` narrowed.
  // Gateway ids and outcomes come only from the gateway: the storefront's are cleared (written null).
  const storefront = { ...storefrontSafe(input.data), ...providerKeysCleared(input.data) }
  if (base.flow === "direct") {
    // Nothing to register yet: the card route sends sale/preauth with the card. Keep the logged-in customer's
    // details (validated by Medusa) for it, since the card request has no customer context.
    const payer = { ...customerPayer(customer), ...(storefront.payer ?? {}) }
    return { id: base.clientOrderId, data: { ...storefront, ...base, payer }, status: PaymentSessionStatus.PENDING }
  }
  const payer = payerOf(input.data?.payer, customer)
  const op = base.transactionType === "sale" ? "SALEFORM" : "PREAUTHFORM"
  const fields = hostedPaymentFields({ ...orderRequest(ctx, base, payer), amount: base.amount, currency })
  const sent = await gatewayValue(op, () => sendMoneyRequest(ctx.client, { op, fields, status: { clientOrderId: base.clientOrderId } }))
  if (sent.kind !== "reply") {
    // The registration may exist at the gateway (STATUS may even show it), but its hosted-page address was lost with
    // the response: no shopper can pay on it, so it moves no money. Nothing is sent again under this id; failing
    // makes Medusa delete this session and the storefront start a new one.
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "PaynetEasy did not answer the payment-page registration in time; please try again")
  }
  return {
    id: base.clientOrderId,
    data: { ...storefront, ...base, orderId: orderIdOf(sent.reply), redirectUrl: redirectUrlOf(sent.reply) },
    status: PaymentSessionStatus.PENDING,
  }
}

/** The session's status by STATUS (authorizePayment, getPaymentStatus, a refresh without card fields). */
export async function checkStatus(ctx: ProviderContext, data: SessionData): Promise<Outcome> {
  if (!data.orderId && (data.gatewayStatus === "unknown" || (data.flow === "direct" && !data.gatewayStatus))) {
    // No card submitted yet (direct flow), or a card or saved-card request whose reply and STATUS were lost
    // (gatewayStatus "unknown"): ask by client_orderid; "not found" means nothing to authorize.
    try {
      const reply = await ctx.client.request("STATUS", statusFields({ clientOrderId: data.clientOrderId }))
      return fromStatus({ ...data, orderId: orderIdOf(reply) }, reply)
    } catch (e) {
      if (isNotFound(e)) return { data, status: PaymentSessionStatus.PENDING }
      throw wrap("STATUS", e)
    }
  }
  const reply = await gatewayValue("STATUS", () => ctx.client.request("STATUS", statusFields({ clientOrderId: data.clientOrderId, orderId: data.orderId })))
  return fromStatus(data, reply)
}

/** The direct flow's card step: one sale / preauth attempt with the card, followed to a decisive STATUS. */
export async function payWithCard(
  ctx: ProviderContext,
  data: SessionData,
  raw: { card: unknown; client_ip?: unknown },
  input: { amount: BigNumberInput; currency_code: string }
): Promise<Outcome> {
  if (data.flow !== "direct") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This payment session uses the hosted payment page; card details are not accepted")
  }
  let card
  try {
    card = parseCard(raw.card)
  } catch (e) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, (e as Error).message)
  }
  if (data.gatewayStatus && !isDeclined(data.gatewayStatus) && data.gatewayStatus !== "validation-error") {
    // approved, or still running (processing / 3-D Secure / unknown): a second charge must not start.
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "A payment is already in progress or done for this session")
  }
  const attempt = data.gatewayStatus ? (data.attempt ?? 1) + 1 : data.attempt ?? 1
  const clientOrderId = clientOrderIdFor(data.session_id, attempt)
  const currency = toGatewayCurrency(input.currency_code)
  const amount = toGatewayAmount(input.amount, currency)
  const payer = payerOf(data.payer, undefined, typeof raw.client_ip === "string" ? raw.client_ip : undefined)
  const attemptData: SessionData = stripOutcome(data, { clientOrderId, attempt, amount, currency })
  const op = data.transactionType === "sale" ? "SALE" : "PREAUTH"
  const fields = cardPaymentFields({ ...orderRequest(ctx, attemptData, payer), amount, currency, card })
  // The card request is sent once (core/connection/money-request.ts). When it may have reached the gateway but no
  // STATUS shows it (not found YET — a gateway still processing it shows nothing — or STATUS failing), the outcome is
  // unknown, not failed: the attempt is kept as pending ("confirming") under its own client_orderid (reconciliation
  // asks STATUS by it; no other card is accepted meanwhile), and nothing is sent again.
  const unknown = (e: unknown) => {
    if (maybeSent(e)) return { kind: "unknown" as const }
    throw e
  }
  // orderId "" clears the previous attempt's gateway order (JSON data is merged on update; parsing reads "" as none).
  const pending = (orderId?: string): Outcome => ({
    data: { ...attemptData, orderId: orderId ?? "", gatewayStatus: "unknown" },
    status: PaymentSessionStatus.PENDING,
  })
  const sent = await callGateway(op, () => sendMoneyRequest(ctx.client, { op, fields, status: { clientOrderId } }))
  if (!sent.ok) {
    // The gateway refused the card request itself (validation error): no transaction exists; the shopper may retry.
    return { data: { ...attemptData, gatewayStatus: "validation-error", error: sent.refused }, status: PaymentSessionStatus.ERROR }
  }
  const result = sent.value
  if (result.kind === "pending") return pending()
  const orderId = orderIdOf(result.kind === "reply" ? result.reply : result.status)
  const polled =
    result.kind === "shown" && (isFinal(result.status) || result.status.html || redirectToOf(result.status))
      ? { kind: "status" as const, status: result.status }
      : await pollStatus(ctx.client, { clientOrderId, orderId }).then((status) => ({ kind: "status" as const, status }), unknown)
  if (polled.kind === "unknown") return pending(orderId)
  return fromStatus({ ...attemptData, orderId: orderId ?? attemptData.orderId }, polled.status)
}

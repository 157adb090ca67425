/**
 * The payout's conversations with the gateway, each under the payout lock (held by the caller):
 * - `sendInitial`: PAYOUT (single), PAYOUT_V4_CHECK (two-step) or PAYOUTFORM (form), sent ONCE through
 *   core/connection/money-request.ts: refused or certainly never left → failed; anything that may have been sent (a
 *   lost reply, an unreadable 200, an HTTP 5xx) is settled by a STATUS by client_orderid that shows it (adopted). A
 *   STATUS that does not show it yet leaves the payout `pending` — a gateway still processing it shows nothing — and
 *   reconciliation asks STATUS again later. Never sent a second time.
 * - `sendPay`: PAYOUT_V4_PAY for an approved check, with the same rule (STATUS shows a `payout` transaction → adopt;
 *   otherwise it stays processing for reconciliation).
 * - `refreshFromStatus`: STATUS, and the payout follows it (callbacks and reconciliation use this; the callback's own
 *   status is never taken as the outcome).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { GatewayError, type PaynetEasyClient } from "../../gateway"
import { isNotFound, statusFields, type StatusReply } from "../connection/gateway-ops"
import { reachOf } from "../connection/reach"
import { sendMoneyRequest } from "../connection/money-request"
import { gatewayDestination, type PayoutMethod, type SendableDestination } from "./destination"
import { payoutCheckFields, payoutFormFields, payoutPayFields, payoutV2Fields, type Payout } from "../../gateway/requests"
import {
  errorCodeOf, errorMessageOf, failureDigest, orderIdOf, redirectUrlOf, serialNumberOf, transactionTypeOf, withTransactionType,
} from "../../gateway/replies"
import { payoutCardFor } from "./saved-card-destination"
import type { PayoutDestinationInput } from "./payout-request"
import { callbackUrls, payoutClient, payoutProviderById } from "../connection/payout-config"
import { applyChange, gatewayAnswer, statusFromGateway, type PayoutRow } from "./payout-state"
import { isRefusedPayout } from "./payout-phase"

const OPS = { single: "PAYOUT", two_step: "PAYOUT_V4_CHECK", form: "PAYOUTFORM" } as const

const nothingMadeEvent = (e: unknown) => (reachOf(e) === "answered" ? "refused by the gateway" : "not sent (refused before sending)")

const errorAnswer = (e: unknown) =>
  e instanceof GatewayError
    ? failureDigest({ source: e.name, code: e.code, message: e.gatewayMessage ?? e.message, httpStatus: e.httpStatus })
    : failureDigest({ source: "error", message: e instanceof Error ? e.message : String(e) })

async function withClient<T>(container: MedusaContainer, payout: PayoutRow, fn: (c: PaynetEasyClient) => Promise<T>): Promise<T> {
  const client = payoutClient(payoutProviderById(container, payout.provider_id))
  try {
    return await fn(client)
  } finally {
    await client.close().catch(() => undefined)
  }
}

async function askStatus(client: PaynetEasyClient, payout: PayoutRow): Promise<StatusReply | "not_found"> {
  try {
    return await client.request("STATUS", statusFields({ clientOrderId: payout.client_orderid, orderId: payout.gateway_order_id ?? undefined }))
  } catch (e) {
    if (isNotFound(e)) return "not_found"
    throw e
  }
}

const ids = (r: Record<string, unknown>) => ({ orderId: orderIdOf(r), serial: serialNumberOf(r) })

/** A saved card becomes its card reference, read from the card row now (still active, same registration). */
async function sendable(container: MedusaContainer, payout: PayoutRow, d: PayoutDestinationInput): Promise<SendableDestination> {
  if (d.type !== "saved_card") return d
  const card = await payoutCardFor(container, d.card_id, payout.provider_id)
  return { type: "card_ref", card_ref_id: card.card_ref_id as string }
}

/** Sends the payout's first request. `destination` is absent for the hosted form. */
export async function sendInitial(
  container: MedusaContainer,
  payout: PayoutRow,
  destination: PayoutDestinationInput | undefined,
  actor: string
): Promise<PayoutRow> {
  const opts = payoutProviderById(container, payout.provider_id)
  const method = payout.method as PayoutMethod
  const op = OPS[method]
  const urls = callbackUrls(opts)
  const request: Payout = {
    clientOrderId: payout.client_orderid,
    amount: payout.amount,
    currency: payout.currency_code,
    description: payout.purpose ?? `Payout ${payout.id}`,
    purpose: payout.purpose ?? undefined,
    callbackUrl: urls.callbackUrl,
    redirectUrl: urls.redirectUrl,
    destination: destination ? gatewayDestination(await sendable(container, payout, destination)) : undefined,
    recipient: payout.recipient ?? undefined,
  }
  const fields = method === "form" ? payoutFormFields(request) : method === "two_step" ? payoutCheckFields(request) : payoutV2Fields(request)
  return withClient(container, payout, async (client) => {
    let sent
    try {
      sent = await sendMoneyRequest(client, { op, fields, status: { clientOrderId: payout.client_orderid } })
    } catch (e) {
      // refused by the gateway, or it certainly never left: no payout was made
      const ge = e as GatewayError
      return applyChange(container, payout, {
        actor, event: `${op.toLowerCase()} ${nothingMadeEvent(e)}`, status: "failed",
        patch: { error_code: ge.code ?? null, error_message: (ge.gatewayMessage ?? ge.message ?? String(e)).slice(0, 1000) },
        gateway: errorAnswer(e),
      })
    }
    if (sent.kind === "shown") return adoptStatus(container, payout, sent.status, actor, "adopted the gateway's transaction after a lost reply")
    if (sent.kind === "pending") {
      return applyChange(container, payout, {
        actor, event: `${op.toLowerCase()} reply lost and STATUS does not show it yet; left pending for reconciliation (never sent again)`,
        patch: { next_check_at: new Date(Date.now() + 5_000) },
        gateway: failureDigest({ source: "status", message: sent.reason }),
      })
    }
    const reply = sent.reply as Record<string, unknown>
    const { orderId, serial } = ids(reply)
    const formUrl = redirectUrlOf(reply)
    const status = method === "form" ? "form_issued" : statusFromGateway(payout, withTransactionType(reply, method === "two_step" ? "payout-check" : "payout"))
    return applyChange(container, payout, {
      actor, event: `${op.toLowerCase()} sent`, status,
      patch: {
        gateway_order_id: orderId ?? payout.gateway_order_id,
        ...(method === "two_step" ? { check_serial: serial ?? null } : { pay_serial: serial ?? null }),
        ...(formUrl ? { form_url: formUrl } : {}),
        next_check_at: new Date(Date.now() + 5_000),
      },
      gateway: gatewayAnswer(reply),
    })
  })
}

/** Applies a STATUS reply (ids, serials, status, reason). Caller holds the lock. */
export async function adoptStatus(container: MedusaContainer, payout: PayoutRow, reply: StatusReply, actor: string, event: string, extra?: Record<string, unknown>): Promise<PayoutRow> {
  const status = statusFromGateway(payout, reply)
  const { orderId, serial } = ids(reply)
  const txType = (transactionTypeOf(reply) ?? "").toLowerCase()
  const declined = isRefusedPayout(status)
  const patch: Partial<PayoutRow> = {
    gateway_order_id: orderId ?? payout.gateway_order_id,
    ...(serial && txType === "payout-check" ? { check_serial: serial } : {}),
    ...(serial && txType === "payout" ? { pay_serial: serial } : {}),
    ...(declined ? { error_code: errorCodeOf(reply) ?? null, error_message: errorMessageOf(reply) ?? null } : {}),
  }
  const changed = status !== payout.status || Object.entries(patch).some(([k, v]) => (payout as Record<string, unknown>)[k] !== v)
  if (!changed && !extra) return payout
  return applyChange(container, payout, {
    actor, event, status, patch, gateway: { ...(gatewayAnswer(reply) ?? {}), ...(extra ? { callback: gatewayAnswer(extra) } : {}) },
  })
}

/** STATUS now; the payout follows it. Not found: a payout still `pending` long enough is marked `failed`. */
export async function refreshFromStatus(container: MedusaContainer, payout: PayoutRow, actor: string, event: string, extra?: Record<string, unknown>): Promise<PayoutRow> {
  return withClient(container, payout, async (client) => {
    const reply = await askStatus(client, payout)
    if (reply === "not_found") {
      const ageMs = Date.now() - new Date(payout.created_at).getTime()
      if (payout.status === "pending" && !payout.gateway_order_id && ageMs > NOT_FOUND_GIVE_UP_MS) {
        return applyChange(container, payout, {
          actor, event: "the gateway knows no transaction for this client_orderid: nothing was paid", status: "failed",
        })
      }
      return payout
    }
    return adoptStatus(container, payout, reply, actor, event, extra)
  })
}

/** A pending payout whose request the gateway never saw is given up after this long (STATUS by client_orderid). */
export const NOT_FOUND_GIVE_UP_MS = 10 * 60_000

/** PAYOUT_V4_PAY for an approved check, once; lost reply → STATUS: a `payout` transaction is adopted, none → left for reconciliation. */
export async function sendPay(container: MedusaContainer, payout: PayoutRow, actor: string): Promise<PayoutRow> {
  return withClient(container, payout, async (client) => {
    const fields = payoutPayFields({
      clientOrderId: payout.client_orderid,
      orderId: payout.gateway_order_id as string,
      login: payoutProviderById(container, payout.provider_id).login,
    })
    let sent
    try {
      sent = await sendMoneyRequest(client, {
        op: "PAYOUT_V4_PAY", fields, status: { clientOrderId: payout.client_orderid, orderId: payout.gateway_order_id ?? undefined },
        shows: (st) => (transactionTypeOf(st) ?? "").toLowerCase() === "payout",
      })
    } catch (e) {
      // The check stays approved at the gateway but the pay was refused (or never left): the payout did not happen.
      const ge = e as GatewayError
      return applyChange(container, payout, {
        actor, event: `payout_v4_pay ${nothingMadeEvent(e)}`, status: "failed",
        patch: { error_code: ge.code ?? null, error_message: (ge.gatewayMessage ?? ge.message ?? String(e)).slice(0, 1000) },
        gateway: errorAnswer(e),
      })
    }
    if (sent.kind === "shown") return adoptStatus(container, payout, sent.status, actor, "adopted the pay transaction after a lost reply")
    if (sent.kind === "pending") {
      return applyChange(container, payout, {
        actor, event: "payout_v4_pay reply lost and STATUS does not show the pay yet; left for reconciliation (never sent again)",
        gateway: failureDigest({ source: "status", message: sent.reason }),
      })
    }
    const reply = sent.reply as Record<string, unknown>
    return applyChange(container, payout, {
      actor, event: "payout_v4_pay sent",
      status: statusFromGateway(payout, withTransactionType(reply, "payout")),
      patch: { pay_serial: ids(reply).serial ?? null, next_check_at: new Date(Date.now() + 5_000) },
      gateway: gatewayAnswer(reply),
    })
  })
}

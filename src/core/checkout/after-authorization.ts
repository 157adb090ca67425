/**
 * Money after authorization: capture of exactly Medusa's Capture amount, return of exactly the refund amount,
 * cancel (void; refused because settled → full return; already voided → done), and releasing the hold of a deleted
 * session. Each keyed by Medusa's own id (context.idempotency_key), so a replay is a no-op. Sending and following
 * one capture / return / void: follow-up.ts.
 */
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { isApproved, isDeclined, isInitialTransactionType } from "../../gateway/statuses"
import { DEFAULT_PROCESSING_WINDOW_MS, isNotFound } from "../connection"
import type { SessionData } from "./session-data"
import { rowsMinor, toGatewayAmount, toMinor } from "./amounts"
import { fromMinorUnits } from "../../gateway/money"
import { captureAmount } from "./capture-amount"
import { assertNoCaptureKept, assertRefundable } from "./refund-room"
import type { ProviderContext } from "./context"
import { GatewayRefusal } from "./errors"
import { followUp, type FollowOp, type FollowOutcome } from "./follow-up"
import { gatewayValue } from "./gateway-call"
import { toSessionStatus, transactionTypeKey } from "./status-map"
import { followUpFields, statusFields } from "../../gateway/requests"
import { sessionHoldsOrderMoney } from "./paid-collection"
import { holdReleased } from "./hold-release"
import { sessionHolder } from "./session-holder"
import { orderIdOf, transactionTypeOf } from "../../gateway/replies"
import { refuseWhileUnshown } from "./unshown-request"
import { idMismatch } from "./reply-match"
import { paymentLogger } from "../telemetry/payment-log"

type Data = Record<string, unknown>

const statusOf = (data: SessionData) => statusFields({ clientOrderId: data.clientOrderId, orderId: data.orderId })

function requireOrderId(data: SessionData, what: string): string {
  if (!data.orderId) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `PaynetEasy ${what}: this payment has no gateway order id`)
  }
  return data.orderId
}

function requireMedusaId(id: string | undefined, what: string): string {
  if (!id) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `PaynetEasy ${what}: Medusa passed no ${what} id (context.idempotency_key); refusing to move an unknown amount`)
  }
  return id
}

/** The provider's logger, its lines ending with the payment's ids (core/telemetry/payment-log.ts). */
const logOf = (ctx: ProviderContext, data: Pick<SessionData, "session_id" | "orderId" | "clientOrderId">) =>
  ctx.logger && paymentLogger(ctx.logger, { paymentSessionId: data.session_id, gatewayOrderId: data.orderId, clientOrderId: data.clientOrderId })

/** How long a request whose reply was lost may still be processing at the gateway (core/connection). */
const windowOf = (ctx: ProviderContext) => ctx.options.processingWindowMs ?? DEFAULT_PROCESSING_WINDOW_MS

type FollowAsk = { orderId?: string; amount?: string; comment?: string }

/** Capture / return / void through follow-up.ts; a still-undecided one is recorded as pending, with a warning. */
async function follow(ctx: ProviderContext, op: FollowOp, ask: FollowAsk, data: SessionData): Promise<FollowOutcome> {
  const orderId = ask.orderId ?? data.orderId
  const fields = followUpFields({
    clientOrderId: data.clientOrderId,
    orderId,
    amount: ask.amount,
    currency: ask.amount === undefined ? undefined : data.currency,
    comment: ask.comment,
  })
  const outcome = await followUp(ctx.client, {
    op,
    fields,
    query: { clientOrderId: data.clientOrderId, orderId: data.orderId },
    amount: ask.amount,
    currency: data.currency,
  })
  if (outcome.pending) {
    logOf(ctx, data)?.warn(`PaynetEasy ${op} for order ${data.orderId} is still ${outcome.status}; recorded as pending for reconciliation`)
  }
  return outcome
}

export async function capture(ctx: ProviderContext, cradle: unknown, data: SessionData, captureId: string | undefined): Promise<Data> {
  const id = requireMedusaId(captureId, "capture")
  if (data.captures?.some((c) => c.id === id)) return data // replay of the same Medusa capture
  if (data.transactionType === "sale") return data // a sale captured the money when it was approved
  const orderId = requireOrderId(data, "capture")
  refuseWhileUnshown(data, new Date(), windowOf(ctx), "capture")
  const amount = await captureAmount(cradle, id, data.currency)
  const entry = await follow(ctx, "CAPTURE", { orderId, amount }, data)
  return { ...data, captures: [...(data.captures ?? []), { id, amount, currency: data.currency, ...entry }] }
}

export async function refund(ctx: ProviderContext, cradle: unknown, data: SessionData, refundId: string | undefined, requested: BigNumberInput): Promise<Data> {
  const id = requireMedusaId(refundId, "refund")
  if (data.refunds?.some((r) => r.id === id)) return data
  const orderId = requireOrderId(data, "refund")
  refuseWhileUnshown(data, new Date(), windowOf(ctx), "refund")
  const amount = toGatewayAmount(requested, data.currency)
  if (toMinor(amount, data.currency) <= 0n) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "Refund amount must be greater than zero")
  }
  // exactly what was captured and not refunded, not Medusa's one-minor-unit tolerance (refund-room.ts)
  await assertRefundable(cradle, id, toMinor(amount, data.currency), data.currency)
  const entry = await follow(ctx, "RETURN", { orderId, amount, comment: `Refund ${id}`.slice(0, 50) }, data)
  return { ...data, refunds: [...(data.refunds ?? []), { id, amount, currency: data.currency, ...entry }] }
}

/**
 * Cancels the payment at the gateway (void, or a full return when the void is refused). `cancelId` is the Payment's id
 * when Medusa cancels a Payment (payment module `cancelPayment`). Medusa also calls the provider's cancel without one:
 * to roll back an authorization it could not record (`authorizePaymentSession`: the Payment's insert failed). That
 * happens when two authorizations of the same session run at once (a callback or reconciliation settling the session
 * while a workflow authorizes it): the other one recorded the Payment, and a void here would take back the money that
 * Payment holds (found by saved-card-payments.spec.ts, "two renewals of the same period at the same time": a
 * captured Payment in Medusa, a voided sale at the gateway). Such a rollback sends nothing; a session that is left
 * without a Payment is reconciliation's to settle (and the attention queue's, when paid without an order).
 * A preauth with captured money is not canceled at all (refund-room.ts `assertNoCaptureKept`).
 */
export async function cancel(ctx: ProviderContext, cradle: unknown, data: SessionData, cancelId: string | undefined): Promise<Data> {
  // released already (or its release still pending), or nothing was ever sent to the gateway; a release the gateway
  // declined released nothing and goes again (hold-release.ts)
  if (holdReleased(data) || !data.orderId) return data
  if (!cancelId) {
    logOf(ctx, data)?.warn(
      `PaynetEasy: Medusa rolled back an authorization of session ${data.session_id} it could not record (another one recorded it first?); gateway order ${data.orderId} left as it is for reconciliation`
    )
    return data
  }
  refuseWhileUnshown(data, new Date(), windowOf(ctx), "cancel")
  await assertNoCaptureKept(cradle, cancelId, data.transactionType, data.currency)
  const reply = await gatewayValue("STATUS", () => ctx.client.request("STATUS", statusOf(data)))
  // A reply about another order says nothing of this one (its "approved void" would leave this hold on the card).
  const mismatch = idMismatch(reply, data)
  if (mismatch) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `PaynetEasy cancel: the gateway's STATUS answered about another payment (${mismatch}), so nothing was sent and nothing is canceled. ` +
        `Try again; if it happens again, check order ${data.orderId} in the PaynetEasy back office`
    )
  }
  // STATUS describes the order's latest transaction.
  const type = transactionTypeKey(transactionTypeOf(reply))
  if (type === "void" && isApproved(reply)) {
    return { ...data, voided: true, gatewayStatus: reply.status } // already voided
  }
  if (isInitialTransactionType(type) && isDeclined(reply)) {
    return { ...data, gatewayStatus: reply.status } // the payment itself failed: nothing is held
  }
  return giveBackInFull(ctx, data, `Cancel ${cancelId ?? data.session_id}`)
}

/**
 * Medusa deletes sessions whenever the cart changes, and whenever anyone holding the publishable key asks for a new
 * session on a collection (createPaymentSessionsWorkflow checks nothing about the collection being paid). A session
 * that backs a Payment, or whose collection is authorized, captured or completed, moves no money here: Medusa
 * captures and refunds from the Payment's own data, not from the session, so the order still needs that money
 * (issue 49, defect 1: a second tab voided the preauth behind a placed order). The route guard refuses such a new
 * session before Medusa deletes anything (api/paid-collection-guard.ts); this is the provider's own line, for every
 * other caller. When Medusa cannot be asked, nothing is moved either.
 *
 * Otherwise: a hosted registration nobody paid moves no money and is left to expire. If the gateway already holds an
 * approved preauth or sale for this session (paid, then the cart changed before completion), it is given back in full
 * (void, or a full return when the gateway refuses the void), once: no Payment backs the session (asked just above,
 * under the cart's lock, which cart changes, new sessions and the callback's settle-session all take), so no order can
 * ever be made from it, and its callback may never come (a sale was left taken with nothing in Medusa when it was only
 * logged: integration-tests/http/money-attacks.spec.ts). A callback that comes later finds the give-back at STATUS and
 * sends nothing (core/callbacks/orphaned-payment.ts). A sale goes back only when Medusa showed the session, and never a
 * renewal's recorded charge (logged for reconciliation). Returns the data to keep, or undefined (unchanged).
 *
 * A session whose card or saved-card request has an unknown outcome (gatewayStatus "unknown", no gateway order id:
 * the reply and the STATUS after it were lost) may still hold a charge, which deleting the session would orphan: its
 * STATUS asks by client_orderid alone. "Not found" means nothing was charged, and a STATUS that still fails leaves
 * the data as it is (logged: the callback, if any, lands in the admin's Attention list).
 */
export async function releaseDeleted(ctx: ProviderContext, cradle: unknown, data: SessionData): Promise<Data | undefined> {
  const unknownOutcome = !data.orderId && data.gatewayStatus === "unknown"
  if (!data.orderId && !unknownOutcome) return undefined
  const what = data.orderId ? `gateway order ${data.orderId}` : `request ${data.clientOrderId} (outcome unknown)`
  const holder = await sessionHolder(cradle, data.session_id)
  const keep = "unknown" in holder ? `Medusa could not be asked what it holds (${holder.unknown})` : holder.found ? sessionHoldsOrderMoney(holder.facts) : undefined
  if (keep) {
    logOf(ctx, data)?.warn(`PaynetEasy: session ${data.session_id} was deleted, but ${keep}; ${what} left as it is`)
    return undefined
  }
  try {
    // one STATUS decides: by client_orderid alone when the gateway order id was never learned
    const reply = await ctx.client.request("STATUS", statusOf(data))
    const mismatch = idMismatch(reply, data)
    if (mismatch) {
      logOf(ctx, data)?.warn(`PaynetEasy: session ${data.session_id} was deleted, but the STATUS of ${what} answered about another payment (${mismatch}); nothing moved`)
      return undefined
    }
    const orderId = data.orderId ?? orderIdOf(reply)
    if (!orderId) return undefined
    const status = toSessionStatus({ status: reply.status, transactionType: transactionTypeOf(reply) ?? data.transactionType })
    // A sale goes back only when Medusa itself showed this session with nothing behind it; a renewal's recorded charge
    // (recurring-charge-payment.ts: its data names the charge, not the session) is the renewal's to claim again.
    const saleMayGoBack = "found" in holder && holder.found && !(data as Data).recurring_charge_id
    if (status === PaymentSessionStatus.AUTHORIZED || (status === PaymentSessionStatus.CAPTURED && saleMayGoBack)) {
      return await giveBackInFull(ctx, { ...data, orderId }, `Session ${data.session_id} deleted`)
    }
    if (status === PaymentSessionStatus.CAPTURED) {
      logOf(ctx, { ...data, orderId })?.warn(`PaynetEasy: session ${data.session_id} was deleted but gateway order ${orderId} is a paid sale Medusa does not show; reconcile it`)
    }
  } catch (e) {
    // "not found" for an unknown outcome: the request never reached the gateway, nothing was charged
    if (!(unknownOutcome && isNotFound(e))) {
      logOf(ctx, data)?.warn(`PaynetEasy: could not check ${what} of deleted session ${data.session_id}: ${(e as Error).message}`)
    }
  }
  return undefined
}

/**
 * A settled preauth captured in part and refunded in full: the gateway refuses a VOID once settled, and a RETURN gives
 * back only captured money, so the uncaptured rest of the hold cannot be released by any request (found from outside,
 * issue 49). The cancel still ends (nothing else can be sent; Medusa never captures a canceled payment), and says so
 * instead of claiming the hold released.
 */
function warnHoldLeft(ctx: ProviderContext, data: SessionData): void {
  if (data.transactionType !== "preauth" || !data.currency) return
  const authorized = toMinor(data.amount, data.currency)
  const captured = rowsMinor(data.captures?.filter((c) => c.status === "approved"), data.currency)
  // only a preauth captured in part: one never captured is released by a VOID or a RETURN, and says nothing here
  if (captured === 0n || authorized - captured <= 0n) return
  logOf(ctx, data)?.warn(
    `PaynetEasy: the rest of the hold, ${fromMinorUnits(authorized - captured, data.currency)} ${data.currency.toUpperCase()} of ` +
      `${toGatewayAmount(data.amount, data.currency)}, on gateway order ${data.orderId} could not be released: the gateway has settled the ` +
      `order and refuses a VOID, and a RETURN gives back only captured money. Medusa will not capture it again (the payment is ` +
      `canceled); the card's authorization lapses by itself`
  )
}

/**
 * Void; when the gateway refuses it (e.g. settled), a full return (no amount = full reversal). Also what gives back the
 * payment of a session Medusa deleted (core/callbacks/orphaned-payment.ts).
 */
export async function giveBackInFull(ctx: ProviderContext, data: SessionData, comment: string): Promise<Data> {
  const base = { comment: comment.slice(0, 50) }
  try {
    const entry = await follow(ctx, "VOID", base, data)
    return { ...data, voided: true, gatewayStatus: entry.status, voidEntry: { id: "void", amount: "all", ...entry } }
  } catch (e) {
    if (!(e instanceof GatewayRefusal)) throw e
    logOf(ctx, data)?.info(`PaynetEasy: void refused for order ${data.orderId} (${(e as Error).message}); returning in full instead`)
  }
  let entry: FollowOutcome
  try {
    entry = await follow(ctx, "RETURN", base, data)
  } catch (e) {
    // Refused too: if the order is already fully voided / reversed, cancelling is done; otherwise say why not.
    const now = await ctx.client.request("STATUS", statusOf(data)).catch(() => undefined)
    const kind = transactionTypeKey(transactionTypeOf(now))
    if (e instanceof GatewayRefusal && !!now && !idMismatch(now, data) && isApproved(now) && (kind === "void" || kind === "reversal")) {
      if (kind === "reversal") warnHoldLeft(ctx, data)
      return { ...data, voided: true, gatewayStatus: now.status }
    }
    throw e
  }
  return {
    ...data,
    voided: true,
    gatewayStatus: entry.status,
    refunds: [...(data.refunds ?? []), { id: "cancel", amount: "all remaining", viaReturn: true, ...entry }],
  }
}

/**
 * Admin rebill: charge what an order owes and nobody has paid or authorized (or part of it) to one of the order
 * customer's saved cards, with the cardholder absent, so that the charge becomes a Medusa payment on the order (paid /
 * outstanding totals right, refundable like any other payment).
 *
 * What may be charged (core/saved-cards/rebill-balance.ts): Medusa's outstanding amount minus what the order's payments
 * hold authorized and minus a rebill still pending. An authorization is never cancelled, voided or replaced: the
 * rebill is paid into the order's untouched unpaid collection (the one an order edit makes for the difference) or a
 * collection of its own (createOrderPaymentCollectionWorkflow, which only adds one), never through Medusa's
 * createOrUpdateOrderPaymentCollectionWorkflow (it cancels an authorized collection, a VOID at the gateway). An order
 * whose authorization covers what it owes is refused: capture it instead.
 *
 * Once, whatever happens around it:
 * - Medusa's locking module serializes rebills per order (acquireLockStep / releaseLockStep), and the table allows
 *   one `pending` rebill per order (a partial unique index), so at most one rebill of an order is unfinished, whatever
 *   the requests' bodies say; a request while one is pending is refused naming it (id, amount, card);
 * - the rebill row's idempotency key is (order, order version, card, amount in minor units or "balance"): a double
 *   click or a retried request finds the row of the first and gets its result back (`replayed: true`); a request
 *   written otherwise finds nothing left to charge. An order edit bumps the order version;
 * - the charge itself goes through the provider's public contract (a payment session with `data.card_id`, then
 *   Medusa's authorizePaymentSession): make-rebill sent once, a lost reply resolved by STATUS for the same
 *   client_orderid, never re-sent blindly. A rebill whose outcome is unknown stays `pending` until the gateway's
 *   callback or reconciliation settles its session (rebill-outcome.ts).
 * A decline records the gateway's reason on the row and changes no total (no Payment, no order transaction); a payment
 * collection the rebill made for itself is cancelled.
 */
import {
  acquireLockStep, createOrderPaymentCollectionWorkflow, createPaymentSessionsWorkflow, releaseLockStep,
} from "@medusajs/medusa/core-flows"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules, PaymentCollectionStatus } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { PAYNETEASY_MODULE, paynetEasyModule } from "../../../modules/payneteasy"
import { exactMinor, signedMinor, toGatewayAmount, toMinor } from "../../../core/checkout/amounts"
import { fromMinorUnits } from "../../../gateway/money"
import { authorizedHeldMinor, rebillBalance, type PendingRebill, type RebillBalance, type RebillRefusal } from "../../../core/saved-cards/rebill-balance"
import { rebillLockKey, recordRebillPayment } from "../../../core/saved-cards/rebill-outcome"
import { lockKeyOfCollection } from "../../../core/locks/collection-lock"

export type AdminRebillInput = { order_id: string; card_id: string; amount?: string | number; requested_by?: string }

export type AdminRebillResult = {
  rebill_id: string
  replayed: boolean
  state: "succeeded" | "failed" | "pending"
  amount: string
  currency_code: string
  gateway_status: string | null
  error: string | null
  payment: { id: string; amount: string; currency_code: string; captured: boolean; provider_id: string } | null
}

type Prepared =
  | { replay: AdminRebillResult }
  | { replay: null; rebill_id: string; order_id: string; customer_id: string; card_id: string; provider_id: string; amount: string; currency_code: string }

const service = (container: any) => paynetEasyModule(container)

function toResult(row: any, replayed: boolean, payment: AdminRebillResult["payment"] = null): AdminRebillResult {
  return {
    rebill_id: row.id, replayed, state: row.state, amount: row.amount, currency_code: row.currency_code,
    gateway_status: row.gateway_status ?? null, error: row.error_message ?? null, payment,
  }
}

async function paymentView(container: any, paymentId: string | null): Promise<AdminRebillResult["payment"]> {
  if (!paymentId) return null
  const p = await container.resolve(Modules.PAYMENT).retrievePayment(paymentId, { relations: ["captures"] })
  return {
    id: p.id, amount: toGatewayAmount(p.raw_amount ?? p.amount, p.currency_code), currency_code: p.currency_code,
    captured: !!p.captured_at || (p.captures ?? []).length > 0, provider_id: p.provider_id,
  }
}

const raw = (o: any, field: string) => o?.[`raw_${field}`] ?? o?.[field] ?? 0

// "total" is asked for so that Query computes the summary as Medusa's order page shows it: without a total field it
// answers the stored summary, which leaves out a return not received yet (an exchange's: 25.00 owed instead of 14.58,
// integration-tests/http/payment-links.spec.ts), and the rebill would charge more than the order owes.
const ORDER_FIELDS = [
  "id", "version", "customer_id", "currency_code", "total", "summary",
  "payment_collections.id", "payment_collections.status",
  "payment_collections.payments.id", "payment_collections.payments.amount", "payment_collections.payments.raw_amount",
  "payment_collections.payments.canceled_at", "payment_collections.payments.captures.id",
  "payment_collections.payments.captures.amount", "payment_collections.payments.captures.raw_amount",
]

/**
 * The order and what a rebill may charge on it now (core/saved-cards/rebill-balance.ts). NOT_FOUND for an unknown order.
 * Read under the order's rebill lock when it decides a charge; without it for a view (the widget).
 */
export async function loadRebillBalance(container: MedusaContainer, orderId: string): Promise<{ order: any; balance: RebillBalance }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ORDER_FIELDS, filters: { id: orderId } })
  const order = data[0]
  if (!order) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${orderId} was not found`)
  const currency = order.currency_code as string
  const summary = order.summary ?? {}
  // What the order's live payments hold authorized and have not captured: the customer's money already promised.
  const authorizedMinor = authorizedHeldMinor((order.payment_collections ?? []).flatMap((c: any) => c?.payments ?? []), currency)
  // A subscription's retried charge (recurring_payment_id set) uses the same record but is not owed by this order.
  const [row] = await service(container).listPaynetEasyRebills({ order_id: order.id, state: "pending", recurring_payment_id: null }, { take: 1, order: { created_at: "ASC" } })
  const pending: PendingRebill | null = row
    ? { id: row.id, amount: row.amount, currency_code: row.currency_code, card_id: row.card_id ?? "", // an order rebill always names its saved card
      created_at: row.created_at ? new Date(row.created_at).toISOString() : null }
    : null
  const balance = rebillBalance({
    order_id: order.id, customer_id: order.customer_id ?? null, currency_code: currency,
    totalMinor: signedMinor(raw(summary, "current_order_total"), currency),
    paidMinor: signedMinor(raw(summary, "transaction_total"), currency),
    outstandingMinor: signedMinor(raw(summary, "pending_difference"), currency),
    authorizedMinor, pending, pendingMinor: row ? toMinor(row.amount, currency) : 0n,
  })
  return { order, balance }
}

/** A 409 that names why (and, for a pending rebill, which one): the route answers it as is. */
export type RebillConflict = RebillRefusal & { rebill?: PendingRebill }

function refuse(refusal: RebillRefusal, pending: PendingRebill | null): never {
  const error = new MedusaError(MedusaError.Types.CONFLICT, refusal.message)
  // An own property survives the workflow engine's error serialization (utils serializeError).
  Object.assign(error, { rebill_conflict: { ...refusal, ...(refusal.type === "rebill_pending" && pending ? { rebill: pending } : {}) } satisfies RebillConflict })
  throw error
}

/** The conflict a rebill workflow error carries, if it is one. */
export const rebillConflictOf = (e: unknown): RebillConflict | undefined => (e as { rebill_conflict?: RebillConflict })?.rebill_conflict

const isUniqueViolation = (e: unknown) => /unique|duplicate key/i.test(String((e as Error)?.message ?? ""))

export const prepareRebillStep = createStep(
  "payneteasy-prepare-rebill",
  async (input: AdminRebillInput, { container }) => {
    const { order, balance } = await loadRebillBalance(container, input.order_id)
    const currency = order.currency_code as string
    if (balance.refusal?.type === "rebill_pending") refuse(balance.refusal, balance.pending_rebill)
    // Validated before anything else answers: a malformed amount is a 400 whatever the order's state.
    const requestedMinor = input.amount === undefined ? undefined : exactMinor(input.amount, currency)
    if (requestedMinor !== undefined && requestedMinor <= 0n) throw new MedusaError(MedusaError.Types.INVALID_DATA, "amount must be greater than zero")
    const key = `${order.id}:v${order.version}:${input.card_id}:${requestedMinor === undefined ? "balance" : requestedMinor.toString()}`
    const [existing] = await service(container).listPaynetEasyRebills({ idempotency_key: key, state: "succeeded" }, { take: 1 })
    if (existing) {
      return new StepResponse<Prepared, string | null>({ replay: toResult(existing, true, await paymentView(container, existing.payment_id)) }, null)
    }
    if (balance.refusal) refuse(balance.refusal, null)
    const [card] = await service(container).listPaynetEasySavedCards({ id: input.card_id, state: "active" }, { take: 1 })
    if (!card || !card.card_ref_id || card.customer_id !== order.customer_id) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `card_id: saved card ${input.card_id} of this order's customer was not found`)
    }
    const chargeableMinor = toMinor(balance.chargeable, currency)
    const amountMinor = requestedMinor ?? chargeableMinor
    if (amountMinor > chargeableMinor) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `amount must be at most ${balance.chargeable} ${currency.toUpperCase()}: what the order owes and is neither paid nor authorized`
      )
    }
    const amount = fromMinorUnits(amountMinor, currency)
    let row
    try {
      row = await service(container).createPaynetEasyRebills({
        order_id: order.id, card_id: card.id, customer_id: order.customer_id, idempotency_key: key, amount, currency_code: currency,
        state: "pending", requested_by: input.requested_by ?? null,
      })
    } catch (e) {
      // The table's one-pending-rebill-per-order index: another process started one (the lock's holder is gone).
      if (!isUniqueViolation(e)) throw e
      const now = (await loadRebillBalance(container, order.id)).balance
      refuse(now.refusal ?? { type: "rebill_pending", message: "Another rebill of this order has just been started; nothing was charged by this request." }, now.pending_rebill)
    }
    return new StepResponse<Prepared, string | null>(
      { replay: null, rebill_id: row.id, order_id: order.id, customer_id: order.customer_id, card_id: card.id, provider_id: card.provider_id, amount, currency_code: currency },
      row.id
    )
  },
  async (rowId, { container }) => {
    // The workflow failed after the row was written and before an outcome was recorded (e.g. the gateway could not be
    // reached at all): mark it failed so the same request may be tried again.
    if (rowId) {
      const [row] = await service(container).listPaynetEasyRebills({ id: rowId }, { take: 1 })
      if (row?.state === "pending" && !row.session_id) {
        await service(container).updatePaynetEasyRebills({ id: rowId, state: "failed", error_message: "not sent: the request failed before the charge" })
      }
    }
  }
)

/** authorizePaymentSession for the rebill's session: the Payment, or null when the provider has no authorization (yet). */
async function authorizeRebillSession(container: any, sessionId: string) {
  const payments = container.resolve(Modules.PAYMENT)
  try {
    // The collection's lock, as settleSession (core/checkout/settle-session.ts) takes it: the gateway's callback for
    // this rebill may be authorizing the same session right now; the module is idempotent once one of us has created
    // the Payment.
    const [session] = await payments.listPaymentSessions({ id: sessionId }, { select: ["id", "payment_collection_id"] })
    const key = session?.payment_collection_id ? await lockKeyOfCollection(container, session.payment_collection_id) : sessionId
    return await container.resolve(Modules.LOCKING).execute(key, () => payments.authorizePaymentSession(sessionId, {}), { timeout: 30 })
  } catch {
    // Not authorized (declined, still processing, or STATUS unreachable): the session's status says which.
    const [settled] = await payments.listPayments({ payment_session_id: sessionId }, { take: 1 })
    return settled ?? null
  }
}

export const chargeRebillStep = createStep("payneteasy-charge-rebill", async (prepared: Prepared, { container }) => {
  if (prepared.replay) return new StepResponse(prepared.replay)
  const rebills = service(container)
  const payments = container.resolve(Modules.PAYMENT)
  // The rebill's payment collection: the unpaid one Medusa made for the difference (an order edit does), untouched so
  // far, or else one of its own. The order's other collections (an authorization among them) are left as they are.
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order",
    fields: ["payment_collections.id", "payment_collections.status", "payment_collections.payment_sessions.id", "payment_collections.payments.id"],
    filters: { id: prepared.order_id },
  })
  const unpaid = ((data[0])?.payment_collections ?? []).find(
    (c: any) => c?.status === "not_paid" && !(c.payment_sessions ?? []).length && !(c.payments ?? []).length
  )
  let collection: any
  if (unpaid) {
    collection = await payments.updatePaymentCollections(unpaid.id, { amount: prepared.amount })
  } else {
    // Medusa's workflow types the amount as a number; the exact decimal string is what it stores.
    const { result: collections } = await createOrderPaymentCollectionWorkflow(container).run({
      input: { order_id: prepared.order_id, amount: prepared.amount as unknown as number },
    })
    collection = Array.isArray(collections) ? collections[0] : collections
  }
  if (!collection?.id) throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "Medusa created no payment collection for the order")
  // A collection of the rebill's own that ends with no payment is cancelled; Medusa's unpaid one stays for the order.
  const closeUnused = async () => {
    if (!unpaid) await payments.updatePaymentCollections(collection.id, { status: PaymentCollectionStatus.CANCELED })
  }
  await rebills.updatePaynetEasyRebills({ id: prepared.rebill_id, payment_collection_id: collection.id })
  let created
  try {
    ;({ result: created } = await createPaymentSessionsWorkflow(container).run({
      input: {
        payment_collection_id: collection.id, provider_id: prepared.provider_id, customer_id: prepared.customer_id,
        data: { card_id: prepared.card_id, merchant_initiated: true },
      },
    }))
  } catch (e) {
    // The provider throws only when nothing was charged (the gateway certainly did not take it, or refused the request
    // itself); a charge that may have happened comes back as a pending session instead.
    await rebills.updatePaynetEasyRebills({ id: prepared.rebill_id, state: "failed", gateway_status: null, error_message: `not sent: ${(e as Error).message}` })
    await closeUnused()
    const [row] = await rebills.listPaynetEasyRebills({ id: prepared.rebill_id }, { take: 1 })
    return new StepResponse(toResult(row, false))
  }
  await rebills.updatePaynetEasyRebills({ id: prepared.rebill_id, session_id: created.id })
  // The provider may charge when the session is created or when it is authorized: authorizing answers either way.
  const payment = created.status === "error" ? null : await authorizeRebillSession(container, created.id)
  if (payment) {
    await recordRebillPayment(container, { id: prepared.rebill_id, order_id: prepared.order_id }, payment.id, "approved")
    const [row] = await rebills.listPaynetEasyRebills({ id: prepared.rebill_id }, { take: 1 })
    return new StepResponse(toResult(row, false, await paymentView(container, payment.id)))
  }
  const session = await payments.retrievePaymentSession(created.id)
  const sessionData = (session.data ?? {}) as Record<string, any>
  const failed = session.status === "error" || session.status === "canceled"
  const reason =
    sessionData.error?.message ??
    (sessionData.gatewayStatus === "unknown"
      ? "outcome unknown: the gateway may have charged the card (its reply and STATUS were lost); the charge is booked on the order when the gateway confirms it"
      : `The gateway answered ${sessionData.gatewayStatus ?? session.status}`)
  // Pending: the row stays `pending` (no other rebill of the order until it is settled), and settling the session
  // later — the gateway's callback or reconciliation — books it (rebill-outcome.ts). Failed: a collection the rebill
  // made for itself is cancelled (it holds no payment).
  await rebills.updatePaynetEasyRebills({
    id: prepared.rebill_id, state: failed ? "failed" : "pending", error_message: reason, gateway_status: sessionData.gatewayStatus ?? null,
  })
  if (failed) await closeUnused()
  const [row] = await rebills.listPaynetEasyRebills({ id: prepared.rebill_id }, { take: 1 })
  return new StepResponse(toResult(row, false))
})

export const adminRebillOrderWorkflow = createWorkflow("payneteasy-admin-rebill-order", (input: AdminRebillInput) => {
  const lockKey = transform({ input }, ({ input }) => rebillLockKey(input.order_id))
  acquireLockStep({ key: lockKey, timeout: 60, ttl: 120 })
  const prepared = prepareRebillStep(input)
  const result = chargeRebillStep(prepared)
  releaseLockStep({ key: lockKey })
  return new WorkflowResponse(result)
})

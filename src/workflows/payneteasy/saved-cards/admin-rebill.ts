/**
 * Admin rebill: charge an order's outstanding amount (or part of it) to one of the order customer's saved cards, with
 * the cardholder absent, so that the charge becomes a Medusa payment on the order (paid / outstanding totals right,
 * refundable like any other payment).
 *
 * Once, whatever happens around it:
 * - Medusa's locking module serializes rebills per order (acquireLockStep / releaseLockStep), so two admins at once or
 *   three concurrent requests run one after the other;
 * - the rebill row's idempotency key is (order, order version, card, requested amount or "outstanding"): a double click
 *   or a retried request finds the row of the first and gets its result back (`replayed: true`) — no second charge.
 *   An order edit bumps the order version, so the next outstanding amount can be charged;
 * - the charge itself is the provider's saved-card payment (saved-card-payment.ts): make-rebill sent once, a lost reply
 *   resolved by STATUS for the same client_orderid, never re-sent blindly. A row left `pending` by a crashed attempt is
 *   not retried: the admin is told to check the order at the gateway first.
 * A decline records the gateway's reason on the row and changes no total (no Payment, no order transaction).
 *
 * Medusa's way of paying an order: the order's payment collection for the pending difference
 * (createOrUpdateOrderPaymentCollectionWorkflow, as after an order edit) → a payment session with our provider and
 * `data.card_id` → authorizePaymentSession (the provider reports the sale captured, the payment module records the
 * capture) → an order transaction for the capture, as capturePaymentWorkflow does.
 */
import { acquireLockStep, releaseLockStep, createOrUpdateOrderPaymentCollectionWorkflow, createPaymentSessionsWorkflow } from "@medusajs/medusa/core-flows"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { PAYNETEASY_MODULE } from "../../../modules/payneteasy"
import { decimalText, toGatewayAmount, toMinor } from "../../../payment-data/amounts"
import { currencyExponent, fromMinorUnits } from "../../../gateway/money"
import { rebillLockKey, recordRebillPayment } from "./rebill-outcome"

/** Minor units of an admin-typed amount, refusing what the currency cannot hold (no silent rounding). */
function exactMinor(amount: string | number, currency: string): bigint {
  let text: string
  try {
    text = decimalText(amount)
  } catch {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "amount must be a decimal number")
  }
  const fraction = (text.split(".")[1] ?? "").replace(/0+$/, "")
  if (text.startsWith("-") || fraction.length > currencyExponent(currency)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `amount must be positive with at most ${currencyExponent(currency)} decimals in ${currency.toUpperCase()}`)
  }
  return toMinor(amount, currency)
}

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

const service = (container: any) => container.resolve(PAYNETEASY_MODULE) as any

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

export const prepareRebillStep = createStep(
  "payneteasy-prepare-rebill",
  async (input: AdminRebillInput, { container }) => {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({
      entity: "order",
      fields: ["id", "version", "customer_id", "currency_code", "summary", "status"],
      filters: { id: input.order_id },
    })
    const order = data[0] as any
    if (!order) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${input.order_id} was not found`)
    const [card] = await service(container).listPaynetEasySavedCards({ id: input.card_id, state: "active" }, { take: 1 })
    if (!card || !card.card_ref_id || card.customer_id !== order.customer_id) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `card_id: saved card ${input.card_id} of this order's customer was not found`)
    }
    const key = `${order.id}:v${order.version}:${card.id}:${input.amount === undefined ? "outstanding" : String(input.amount)}`
    const [existing] = await service(container).listPaynetEasyRebills({ idempotency_key: key, state: ["pending", "succeeded"] }, { take: 1 })
    if (existing) {
      if (existing.state === "pending") {
        throw new MedusaError(
          MedusaError.Types.CONFLICT,
          `An earlier rebill of this order (${existing.id}) has no recorded outcome; check the order at the gateway before charging again`
        )
      }
      return new StepResponse<Prepared, string | null>({ replay: toResult(existing, true, await paymentView(container, existing.payment_id)) }, null)
    }
    const currency = order.currency_code as string
    const pendingRaw = order.summary?.raw_pending_difference ?? order.summary?.pending_difference ?? 0
    const pendingMinor = Number(String(pendingRaw?.value ?? pendingRaw)) > 0 ? toMinor(pendingRaw, currency) : 0n
    let amountMinor = pendingMinor
    if (input.amount !== undefined) amountMinor = exactMinor(input.amount, currency)
    if (pendingMinor <= 0n) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This order has no outstanding amount to charge")
    }
    if (amountMinor <= 0n) throw new MedusaError(MedusaError.Types.INVALID_DATA, "amount must be greater than zero")
    if (amountMinor > pendingMinor) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `amount must not exceed the outstanding ${toGatewayAmount(pendingRaw, currency)} ${currency.toUpperCase()}`
      )
    }
    const amount = fromMinorUnits(amountMinor, currency)
    const row = await service(container).createPaynetEasyRebills({
      order_id: order.id, card_id: card.id, customer_id: order.customer_id, idempotency_key: key, amount, currency_code: currency,
      state: "pending", requested_by: input.requested_by ?? null,
    })
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

export const chargeRebillStep = createStep("payneteasy-charge-rebill", async (prepared: Prepared, { container }) => {
  if (prepared.replay) return new StepResponse(prepared.replay)
  const rebills = service(container)
  const payments = container.resolve(Modules.PAYMENT)
  // Medusa's workflow types the amount as a number; the exact decimal string is checked (and written back) just below.
  const { result: collections } = await createOrUpdateOrderPaymentCollectionWorkflow(container).run({
    input: { order_id: prepared.order_id, amount: Number(prepared.amount) },
  })
  const collection = (Array.isArray(collections) ? collections[0] : collections) as any
  if (!collection?.id) throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "Medusa created no payment collection for the order")
  if (toMinor(collection.raw_amount ?? collection.amount, prepared.currency_code) !== toMinor(prepared.amount, prepared.currency_code)) {
    await payments.updatePaymentCollections(collection.id, { amount: prepared.amount } as any)
  }
  await rebills.updatePaynetEasyRebills({ id: prepared.rebill_id, payment_collection_id: collection.id })
  const { result: session } = await createPaymentSessionsWorkflow(container).run({
    input: {
      payment_collection_id: collection.id, provider_id: prepared.provider_id, customer_id: prepared.customer_id,
      data: { card_id: prepared.card_id, merchant_initiated: true },
    },
  })
  const sessionData = (session.data ?? {}) as Record<string, any>
  await rebills.updatePaynetEasyRebills({ id: prepared.rebill_id, session_id: session.id, gateway_status: sessionData.gatewayStatus ?? null })
  if (session.status !== "captured" && session.status !== "authorized") {
    // Pending: the row stays `pending` (a repeat is refused until a person checked), and settling the session later —
    // the gateway's callback or reconciliation — books it (rebill-outcome.ts).
    const reason =
      sessionData.error?.message ??
      (sessionData.gatewayStatus === "unknown"
        ? "outcome unknown: the gateway may have charged the card (its reply and STATUS were lost); the charge is booked on the order when the gateway confirms it"
        : `The gateway answered ${sessionData.gatewayStatus ?? session.status}`)
    await rebills.updatePaynetEasyRebills({ id: prepared.rebill_id, state: session.status === "error" ? "failed" : "pending", error_message: reason })
    // The gateway's callback may have settled the session before the row named it (settling finds the row by its
    // session): a Payment made meanwhile is booked now.
    const [settled] = session.status === "error" ? [] : await payments.listPayments({ payment_session_id: session.id }, { take: 1 })
    if (settled) await recordRebillPayment(container, { id: prepared.rebill_id, order_id: prepared.order_id }, settled.id, "approved")
    const [row] = await rebills.listPaynetEasyRebills({ id: prepared.rebill_id }, { take: 1 })
    return new StepResponse(toResult(row, false, settled ? await paymentView(container, settled.id) : undefined))
  }
  // Same lock key as settleSession (workflows/payneteasy/settle-session.ts) uses for a session without a cart: the
  // gateway's callback for this rebill may be authorizing the same session right now; the module is idempotent once
  // one of us has created the Payment.
  const payment = await container.resolve(Modules.LOCKING).execute(session.id, () => payments.authorizePaymentSession(session.id, {}), { timeout: 30 })
  if (!payment) throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Payment session ${session.id} was not authorized`)
  await recordRebillPayment(container, { id: prepared.rebill_id, order_id: prepared.order_id }, payment.id)
  const [row] = await rebills.listPaynetEasyRebills({ id: prepared.rebill_id }, { take: 1 })
  return new StepResponse(toResult(row, false, await paymentView(container, payment.id)))
})

export const adminRebillOrderWorkflow = createWorkflow("payneteasy-admin-rebill-order", (input: AdminRebillInput) => {
  const lockKey = transform({ input }, ({ input }) => rebillLockKey(input.order_id))
  acquireLockStep({ key: lockKey, timeout: 60, ttl: 120 })
  const prepared = prepareRebillStep(input)
  const result = chargeRebillStep(prepared)
  releaseLockStep({ key: lockKey })
  return new WorkflowResponse(result)
})

/**
 * `order.placed` → the gateway's recurring payments for the order's subscription items (one per schedule), run by the
 * `payneteasy-recurring` subscriber.
 *
 * Steps: read the order and group its subscription lines by schedule (metadata.payneteasy_recurring, variant wins) →
 * reserve one row per schedule (insert-or-find on the unique (order, period, interval) key: a second delivery, a
 * retried subscriber or a second instance finds the same rows) → under the order's lock (Medusa locking,
 * `payneteasy:recurring:<order id>`), for each row still `pending`: decide why it cannot be set up (guest order, not
 * paid through PaynetEasy, no private key) or create the card reference (create-card-ref v4 for the order's approved
 * transaction, core/saved-cards/card-gateway.ts) and the recurring payment (core/recurring/gateway-calls.ts, lost reply →
 * STATUS, never a second subscription). No compensation: the gateway has no documented call to undo a recurring
 * payment (README), so what it created is recorded, never rolled back.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { fromMinorUnits } from "../../../gateway/money"
import { nextChargeDate } from "../../../gateway/schedule"
import { parseOptions, resolvePrivateKey } from "../../../core/connection"
import { cardsClient, cardsProviderOptions } from "../../../core/connection/cards-config"
import { service, type RecurringItem } from "../../../core/recurring/records"
import type { RecurringPaymentRow } from "../../../modules/payneteasy/service"
import { toGatewayCurrency, toMinor } from "../../../core/checkout/amounts"
import { createCardReference, readCardInfo } from "../../../core/saved-cards/card-gateway"
import { createRecurringPayment, findRecurringPayment, type RecurringResult } from "../../../core/recurring/gateway-calls"
import { lineSchedule, scheduleKey, type RecurringSchedule } from "../../../core/recurring/schedule"
import { scrub } from "../../../gateway/scrub"
import { LOCK_KEYS } from "../../../core/locks/lock-keys"
import { pluginCallbackUrl } from "../../../core/connection/plugin-urls"


type PlannedSchedule = { schedule: RecurringSchedule; items: RecurringItem[]; amount: string; includes_shipping: boolean }
type Payment = { provider_id: string; clientOrderId: string; orderId: string }
export type RecurringPlan = {
  order_id: string
  customer_id: string | null
  registered: boolean
  currency: string
  payment: Payment | null
  schedules: PlannedSchedule[]
  payer: { email?: string; firstName?: string; lastName?: string; country?: string; city?: string; zip?: string; street?: string }
}

const ORDER_FIELDS = [
  // "total" makes the order module compute totals (items.original_total is one of them)
  "id", "total", "email", "currency_code", "customer_id", "customer.has_account",
  "items.id", "items.title", "items.quantity", "items.unit_price", "items.original_total", "items.variant_id", "items.product_id",
  "items.variant.metadata", "items.variant.product.metadata",
  "shipping_methods.original_total",
  "billing_address.first_name", "billing_address.last_name", "billing_address.country_code", "billing_address.city",
  "billing_address.postal_code", "billing_address.address_1",
  "payment_collections.payments.provider_id", "payment_collections.payments.data",
]


/** The order's approved PaynetEasy transaction (the one the card reference is created from), like save-card-from-order. */
function approvedPayment(order: any): Payment | null {
  const payments = (order.payment_collections ?? []).flatMap((c: any) => c?.payments ?? [])
  const p = payments.find((x: any) =>
    typeof x?.provider_id === "string" && x.provider_id.startsWith("pp_payneteasy") && x.data?.gatewayStatus === "approved" &&
    typeof x.data?.orderId === "string" && typeof x.data?.clientOrderId === "string")
  return p ? { provider_id: p.provider_id, clientOrderId: p.data.clientOrderId, orderId: p.data.orderId } : null
}

export async function planRecurring(container: MedusaContainer, orderId: string): Promise<RecurringPlan | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ORDER_FIELDS, filters: { id: orderId } })
  const order = data[0]
  if (!order) return null
  const currency = toGatewayCurrency(order.currency_code)
  const groups = new Map<string, { schedule: RecurringSchedule; items: RecurringItem[]; minor: bigint }>()
  const invalid: string[] = []
  for (const item of order.items ?? []) {
    const { schedule, error } = lineSchedule(item?.variant?.metadata, item?.variant?.product?.metadata)
    if (error) invalid.push(`${item.title}: ${error}`)
    if (!schedule) continue
    const key = scheduleKey(schedule)
    const group = groups.get(key) ?? { schedule, items: [], minor: 0n }
    group.items.push({
      variant_id: item.variant_id ?? null, product_id: item.product_id ?? null, title: item.title,
      quantity: Number(item.quantity), unit_price: String(item.unit_price),
    })
    group.minor += toMinor(item.original_total, currency)
    groups.set(key, group)
  }
  if (invalid.length) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`PaynetEasy: order ${order.id} has subscription lines that cannot be used: ${invalid.join("; ")}`)
  }
  if (!groups.size) return null
  const shippingMinor = (order.shipping_methods ?? []).reduce((sum: bigint, m: any) => sum + toMinor(m.original_total ?? 0, currency), 0n)
  // Shipping is charged once per period, with the first schedule (shortest period first): its renewals ship the order.
  const rank = { day: 0, week: 1, month: 2, year: 3 } as const
  const sorted = [...groups.values()].sort((a, b) => rank[a.schedule.period] - rank[b.schedule.period] || a.schedule.interval - b.schedule.interval)
  const schedules = sorted.map((g, i) => ({
    schedule: g.schedule, items: g.items, includes_shipping: i === 0 && shippingMinor > 0n,
    amount: fromMinorUnits(g.minor + (i === 0 ? shippingMinor : 0n), currency),
  }))
  const b = order.billing_address ?? {}
  return {
    order_id: order.id, customer_id: order.customer_id ?? null, registered: order.customer?.has_account === true, currency,
    payment: approvedPayment(order), schedules,
    payer: { email: order.email ?? undefined, firstName: b.first_name ?? undefined, lastName: b.last_name ?? undefined,
      country: b.country_code ? String(b.country_code).toUpperCase() : undefined, city: b.city ?? undefined, zip: b.postal_code ?? undefined,
      street: b.address_1 ?? undefined },
  }
}

/** Insert-or-find one row per schedule; a concurrent insert loses on the unique index and reads the winner's row. */
export async function reserveRows(container: MedusaContainer, plan: RecurringPlan): Promise<RecurringPaymentRow[]> {
  const svc = service(container)
  const rows: RecurringPaymentRow[] = []
  for (const s of plan.schedules) {
    const key = { order_id: plan.order_id, period: s.schedule.period, interval: s.schedule.interval }
    const find = async () => ((await svc.listPaynetEasyRecurringPayments(key, { take: 1 })) as RecurringPaymentRow[])[0]
    let row = await find()
    if (!row) {
      try {
        row = await svc.createPaynetEasyRecurringPayments({
          ...key, customer_id: plan.customer_id, provider_id: plan.payment?.provider_id ?? null, status: "pending",
          amount: s.amount, currency_code: plan.currency, items: s.items as any, includes_shipping: s.includes_shipping, // as any: model.json() is typed Record<string, unknown>, but a JSON array is what it stores
        })
      } catch (e) {
        row = await find()
        if (!row) throw e
      }
    }
    rows.push(row!)
  }
  return rows
}

/** Why this order's recurring payments cannot be set up, or undefined when they can. */
function refusal(container: MedusaContainer, plan: RecurringPlan): string | undefined {
  if (!plan.customer_id || !plan.registered) {
    return "guest order: recurring payments need a registered customer (the order was placed; no recurring payment was set up)"
  }
  if (!plan.payment) return "the order was not paid through PaynetEasy with an approved transaction: no card to charge on schedule"
  const options = cardsProviderOptions(container, plan.payment.provider_id)
  let key: string | undefined
  try {
    key = resolvePrivateKey(parseOptions(options).privateKey)
  } catch (e) {
    return scrub((e as Error).message)
  }
  if (!key) {
    return `no private key: create-recurring-payment is a v4 call signed RSA-SHA256, and provider ${plan.payment.provider_id} has no privateKey option (medusa-config.ts)`
  }
  return undefined
}

export async function setUpRecurring(container: MedusaContainer, plan: RecurringPlan): Promise<RecurringPaymentRow[]> {
  const svc = service(container)
  const locking = container.resolve(Modules.LOCKING)
  return locking.execute(LOCK_KEYS.recurring(plan.order_id), async () => {
    const rows = (await svc.listPaynetEasyRecurringPayments({ order_id: plan.order_id })) as RecurringPaymentRow[]
    const pending = rows.filter((r) => r.status === "pending")
    if (!pending.length) return rows
    const why = refusal(container, plan)
    if (why) {
      for (const r of pending) await svc.updatePaynetEasyRecurringPayments({ id: r.id, status: "not_set_up", reason: why })
      container.resolve(ContainerRegistrationKeys.LOGGER).warn(`PaynetEasy: no recurring payment for order ${plan.order_id}: ${why}`)
      return svc.listPaynetEasyRecurringPayments({ order_id: plan.order_id })
    }
    const payment = plan.payment!
    const client = cardsClient(container, payment.provider_id)
    const backend = parseOptions(cardsProviderOptions(container, payment.provider_id)).backendUrl.replace(/\/+$/, "")
    const ref = await createCardReference(client, true, { clientOrderId: payment.clientOrderId, orderId: payment.orderId })
    const card = await readCardInfo(client, ref.card_ref_id).catch(() => null)
    for (const r of pending) {
      const planned = plan.schedules.find((s) => s.schedule.period === r.period && s.schedule.interval === r.interval)
      let result: RecurringResult | { kind: "absent" } = { kind: "absent" }
      if (r.attempts > 0) result = await findRecurringPayment(client, r.id)
      if (result.kind === "absent") {
        await svc.updatePaynetEasyRecurringPayments({ id: r.id, attempts: r.attempts + 1 })
        result = await createRecurringPayment(client, {
          clientOrderId: r.id, cardRefId: ref.card_ref_id, amount: r.amount, currency: r.currency_code,
          schedule: planned?.schedule ?? { period: r.period, interval: r.interval }, description: `Subscription from order ${plan.order_id}`,
          serverCallbackUrl: pluginCallbackUrl(backend), payer: plan.payer,
        })
      }
      const common = { id: r.id, card_ref_id: ref.card_ref_id, card_brand: card?.brand ?? null, card_last4: card?.last4 ?? null }
      if (result.kind === "created") {
        await svc.updatePaynetEasyRecurringPayments({
          ...common, status: "active", reason: null, recurring_payment_id: result.recurringPaymentId,
          next_charge_at: nextChargeDate(new Date(), r.period, r.interval),
        })
      } else {
        const status = result.kind === "refused" ? "failed" : "needs_attention"
        const reason = result.kind === "refused" ? `the gateway refused: ${scrub(result.message)}` : `a person must check the gateway: ${scrub(result.message)}`
        await svc.updatePaynetEasyRecurringPayments({ ...common, status, reason })
        container.resolve(ContainerRegistrationKeys.LOGGER).warn(`PaynetEasy: recurring payment ${r.id} of order ${plan.order_id} is ${status}: ${reason}`)
      }
    }
    return svc.listPaynetEasyRecurringPayments({ order_id: plan.order_id })
  }, { timeout: 60 })
}

const planRecurringStep = createStep("payneteasy-plan-recurring", async (input: { order_id: string }, { container }) =>
  new StepResponse(await planRecurring(container, input.order_id)))

/** Retries of the set-up step when it throws (the gateway unreachable for the card reference, a lock timeout). */
export const SET_UP_RETRIES = 3
/** Seconds between them: Medusa's step config schedules each retry through the workflow engine (in-memory: a timer; Redis: a delayed job). */
export const SET_UP_RETRY_INTERVAL_S = 5

const reserveRecurringRowsStep = createStep(
  "payneteasy-reserve-recurring-rows",
  async (plan: RecurringPlan | null, { container }) => new StepResponse(plan ? await reserveRows(container, plan) : [], plan?.order_id ?? null),
  // the set-up failed for good (every retry spent): rows still pending say so, for a person; nothing is deleted
  async (orderId: string | null | undefined, { container }) => {
    if (!orderId) return
    const svc = service(container)
    // under the order's lock: another run (a redelivered event) may be setting the same rows up right now
    await container.resolve(Modules.LOCKING).execute(LOCK_KEYS.recurring(orderId), async () => {
      const pending = (await svc.listPaynetEasyRecurringPayments({ order_id: orderId, status: "pending" })) as RecurringPaymentRow[]
      for (const r of pending) {
        await svc.updatePaynetEasyRecurringPayments({
          id: r.id, status: "needs_attention",
          reason: `setting up failed ${SET_UP_RETRIES + 1} times, ${SET_UP_RETRY_INTERVAL_S} s apart (the gateway unreachable?): a person must check the gateway and retry`,
        })
      }
    }, { timeout: 60 })
  }
)

type SetUpInput = { plan: RecurringPlan | null; rows: RecurringPaymentRow[] }

const setUpRecurringStep = createStep<SetUpInput, RecurringPaymentRow[], undefined>(
  { name: "payneteasy-set-up-recurring", maxRetries: SET_UP_RETRIES, retryInterval: SET_UP_RETRY_INTERVAL_S },
  async (input, { container, metadata }) => {
    try {
      return new StepResponse(input.plan && input.rows.length ? await setUpRecurring(container, input.plan) : [])
    } catch (e) {
      container.resolve(ContainerRegistrationKeys.LOGGER).warn(
        `PaynetEasy: setting up the recurring payment of order ${input.plan?.order_id} failed (attempt ${metadata?.attempt ?? 1} of ${SET_UP_RETRIES + 1}): ${scrub((e as Error).message)}`)
      throw e
    }
  }
)

export const createRecurringFromOrderWorkflow = createWorkflow("payneteasy-create-recurring-from-order", (input: { order_id: string }) => {
  const plan = planRecurringStep(input)
  const rows = reserveRecurringRowsStep(plan)
  const result = setUpRecurringStep({ plan, rows })
  return new WorkflowResponse(result)
})

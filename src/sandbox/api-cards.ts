/**
 * Card references and subscriptions: CARDREF (v2, control) and CARDREF_V4 (RSA) tokenize the card of a finished,
 * approved order (the same order always yields the same card-ref-id); CARDINFO reads a reference back; CREATE_RP_V4
 * registers a recurring payment with its schedule (recurring.ts runs its charges) and answers synchronously with a
 * recurring-payment-id; UPDATE_RP_V4 changes that schedule (finish date, number of charges, period, interval, amount,
 * card) and answers synchronously too. An update is an order of its own (kind "recurring-update"), so its
 * client-orderid is idempotent like every other and STATUS finds it: how a merchant whose reply was lost learns that
 * the update was made.
 */
import { Refusal, type Ctx } from "./api-context"
import { followUpOrder } from "./api-followups"
import { amountOf, createOrder, priorOrder } from "./api-payments"
import { toMinor } from "./money"
import { summariseCard, type CardSummary } from "./cards"
import { newSchedule, settleSchedule } from "./recurring"
import { initialTxn, latestTxn, type RecurringSchedule } from "./state"

export function createCardRef(c: Ctx): Record<string, string | number> {
  const order = followUpOrder(c)
  const init = initialTxn(order)
  if (!order.card || init.status !== "approved" || latestTxn(order).status === "processing") {
    throw new Refusal("A card reference needs a finished, approved card transaction", "orderid")
  }
  let id = c.store.cardRefByOrder.get(order.orderid)
  if (!id) {
    id = c.store.newRefId()
    c.store.cardRefs.set(id, {
      cardRefId: id, login: c.merchant.login, card: order.card,
      behaviour: order.behaviour === "3ds" || order.behaviour === "approve-no-3ds" ? "approve" : order.behaviour ?? "approve",
      fromOrderid: order.orderid,
    })
    c.store.cardRefByOrder.set(order.orderid, id)
    order.cardRefId = id
    c.engine.note(order, `card reference ${id} created (${c.req.op.name})`)
  }
  const reply: Record<string, string | number> = {
    type: "create-card-ref-response", status: "approved", "card-ref-id": id, "serial-number": c.store.newSerial(),
  }
  if (c.req.op.name === "CARDREF_V4") reply["unq-card-ref-id"] = `U${id}`
  return reply
}

export function cardInfo(c: Ctx): Record<string, string | number> {
  const ref = c.store.cardRefs.get(c.req.fields.cardrefid)
  if (!ref || ref.login !== c.merchant.login) throw new Refusal(`Unknown cardrefid: ${c.req.fields.cardrefid}`, "cardrefid")
  return {
    type: "get-card-info-response",
    "card-printed-name": ref.card.holder,
    "expire-month": ref.card.expMonth,
    "expire-year": ref.card.expYear,
    bin: ref.card.bin,
    "last-four-digits": ref.card.lastFour,
    "card-type": ref.card.brand,
    "serial-number": c.store.newSerial(),
  }
}

export function createRecurringPayment(c: Ctx): Record<string, string | number> {
  const prior = priorOrder(c)
  if (prior) return prior.firstReply
  const f = c.req.fields
  checkPeriod(f.period, f.interval)
  let card: CardSummary | undefined
  const refId = f.cardrefid || f["card-ref-id"]
  if (refId) {
    const ref = c.store.cardRefs.get(refId)
    if (!ref || ref.login !== c.merchant.login) throw new Refusal(`Unknown cardrefid: ${refId}`, "cardrefid")
    card = ref.card
  } else if (f["credit-card-number"]) {
    const r = summariseCard({ number: f["credit-card-number"], expMonth: "12", expYear: "2099", holder: `${f["first-name"] ?? ""} ${f["last-name"] ?? ""}` })
    if (!r.ok) throw new Refusal(r.message, "credit-card-number")
    card = { ...r.card, expMonth: "", expYear: "" }
  } else {
    throw new Refusal("A card is required: cardrefid, card-ref-id or credit-card-number", "cardrefid")
  }
  const rpId = c.store.newRefId()
  const order = createOrder(
    c, { kind: "recurring-payment", txType: "recurring-payment", amountMinor: amountOf(c), card },
    (_o, serial) => ({
      type: "create-recurring-payment-response", status: "approved", "recurring-payment-id": rpId, "serial-number": serial,
    }),
  )
  order.recurringPaymentId = rpId
  order.schedule = newSchedule(f.period, Number(f.interval))
  c.store.recurringPayments.set(rpId, order.orderid)
  c.engine.finalize(order, initialTxn(order), "approved")
  return order.firstReply
}

function checkPeriod(period: string | undefined, interval: string | undefined): void {
  if (!/^[1-9]\d{0,3}$/.test(interval ?? "")) throw new Refusal("interval must be a positive integer", "interval")
  if (!/^(day|week|month|year)s?$/i.test(period ?? "")) throw new Refusal("period must be day, week, month or year", "period")
}

/** A real calendar date written YYYY-MM-DD (the format this sandbox reads `finish-date` in; the vendor page shows none). */
function calendarDate(value: string): string {
  const d = new Date(`${value}T00:00:00Z`)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) {
    throw new Refusal("finish-date must be a date written YYYY-MM-DD", "finish-date")
  }
  return value
}

export function updateRecurringPayment(c: Ctx): Record<string, string | number> {
  const prior = priorOrder(c)
  if (prior) return prior.firstReply
  const f = c.req.fields
  const rpId = f["recurring-payment-id"]
  const orderid = c.store.recurringPayments.get(rpId)
  const rp = orderid === undefined ? undefined : c.store.orders.get(orderid)
  if (!rp?.schedule || rp.merchant.login !== c.merchant.login) {
    throw new Refusal(`Unknown recurring-payment-id: ${rpId}`, "recurring-payment-id")
  }
  // every check first, then every change: a refused update changes nothing
  const changes: Partial<RecurringSchedule> = {}
  if (f["finish-date"] !== undefined) changes.finishDate = calendarDate(f["finish-date"])
  if (f["max-repeats-number"] !== undefined) {
    if (!/^[1-9]\d{0,5}$/.test(f["max-repeats-number"])) throw new Refusal("max-repeats-number must be a positive integer", "max-repeats-number")
    changes.maxRepeats = Number(f["max-repeats-number"])
  }
  if (f.period !== undefined || f.interval !== undefined) {
    checkPeriod(f.period ?? rp.schedule.period, f.interval ?? String(rp.schedule.interval))
    const moved = newSchedule(f.period ?? rp.schedule.period, Number(f.interval ?? rp.schedule.interval))
    Object.assign(changes, { period: moved.period, interval: moved.interval })
  }
  if (f.currency !== undefined && f.currency.toUpperCase() !== rp.currency) {
    throw new Refusal(`currency must be the recurring payment's own (${rp.currency})`, "currency")
  }
  let amountMinor: bigint | undefined
  if (f.amount !== undefined) {
    const m = toMinor(f.amount, rp.currency ?? "")
    if (!m.ok || m.minor <= 0n) throw new Refusal(m.ok ? "amount must be greater than zero" : m.message, "amount")
    amountMinor = m.minor
  }
  let card: CardSummary | undefined
  if (f["credit-card-number"] !== undefined) {
    const r = summariseCard({ number: f["credit-card-number"], expMonth: f["expire-month"] ?? "", expYear: f["expire-year"] ?? "", holder: f["card-printed-name"] ?? "" })
    if (!r.ok) throw new Refusal(r.message, "credit-card-number")
    card = r.card
  }
  if (!Object.keys(changes).length && amountMinor === undefined && !card) {
    throw new Refusal("Nothing to update: send finish-date, max-repeats-number, period, interval, amount or a card", "recurring-payment-id")
  }
  // steering (an `outcome` fault on UPDATE_RP_V4 other than approved): the gateway refuses the update, nothing changes
  const steered = c.faults.outcomeFor(c.req.op.name)
  if (steered && steered !== "approved") {
    throw new Refusal(`The recurring payment ${rpId} cannot be updated now (refused by steering: ${steered})`, "recurring-payment-id", "2")
  }
  const order = createOrder(c, { kind: "recurring-update", txType: "recurring-update", amountMinor: 0n }, (_o, serial) => ({
    type: "update-recurring-payment-response", status: "approved", "recurring-payment-id": rpId, "serial-number": serial,
  }))
  order.recurringPaymentId = rpId
  Object.assign(rp.schedule, changes)
  if (amountMinor !== undefined) rp.amountMinor = amountMinor
  if (card) rp.card = card
  const state = settleSchedule(rp.schedule)
  c.engine.note(rp, `updated by ${f["client-orderid"]} (order ${order.orderid}): ${Object.entries(changes).map(([k, v]) => `${k} ${v}`).join(", ") || "amount or card"}; schedule ${state}`)
  c.engine.finalize(order, initialTxn(order), "approved")
  return order.firstReply
}

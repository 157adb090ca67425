/**
 * Card references and subscriptions: CARDREF (v2, control) and CARDREF_V4 (RSA) tokenize the card of a finished,
 * approved order (the same order always yields the same card-ref-id); CARDINFO reads a reference back; CREATE_RP_V4
 * registers a recurring payment with its schedule (recurring.ts runs its charges) and answers synchronously with a
 * recurring-payment-id.
 */
import { Refusal, type Ctx } from "./api-context"
import { followUpOrder } from "./api-followups"
import { amountOf, createOrder, priorOrder } from "./api-payments"
import { summariseCard, type CardSummary } from "./cards"
import { newSchedule } from "./recurring"
import { initialTxn, latestTxn } from "./state"

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
  if (!/^[1-9]\d{0,3}$/.test(f.interval)) throw new Refusal("interval must be a positive integer", "interval")
  if (!/^(day|week|month|year)s?$/i.test(f.period)) throw new Refusal("period must be day, week, month or year", "period")
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

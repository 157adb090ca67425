/**
 * Money going out: PAYOUT (v2, one step), PAYOUT_V4_CHECK then PAYOUT_V4_PAY (two steps: check registers and
 * validates the recipient without moving money; pay executes it, and repeating pay returns the same reply),
 * PAYOUTFORM (hosted destination page), TRANSFER_V4 (card to card) and PAN_ELIGIBILITY_SEND.
 * Destinations: a card, a card reference (destination-card-ref-id), a bank account (account_number + bank_name +
 * bank_branch), an e-wallet (wallet_id) or a phone (fast payment). Payouts approve unless steered.
 */
import { Refusal, type Ctx } from "./api-context"
import { followUpOrder } from "./api-followups"
import { asyncReply, formReply } from "./api-replies"
import { amountOf, cardFromFields, createOrder, priorOrder } from "./api-payments"
import { summariseCard, type CardSummary } from "./cards"
import { isEligible } from "./eligibility"
import { initialTxn, latestTxn, type Order } from "./state"

export type Destination = NonNullable<Order["destination"]>

/** Reads the payout destination from the fields (also used by the hosted payout page). */
export function destinationOf(c: Pick<Ctx, "store" | "merchant">, f: Record<string, string>): { destination: Destination; card?: CardSummary } {
  // The seed's transfer fields name the destination card `destination-card-no`; the vendor's payout pages use
  // `credit_card_number`. Both are accepted; sending both (different or not) is ambiguous and refused.
  if (f.credit_card_number && f["destination-card-no"]) {
    throw new Refusal("Send the destination card once: credit_card_number or destination-card-no, not both", "destination-card-no")
  }
  const cardField = f.credit_card_number ? "credit_card_number" : f["destination-card-no"] ? "destination-card-no" : undefined
  if (cardField) {
    const r = summariseCard({
      number: f[cardField], expMonth: f.expire_month || "12", expYear: f.expire_year || "2099",
      holder: f.card_printed_name ?? "",
    })
    if (!r.ok) {
      const field = r.field === "credit_card_number" ? cardField : r.field
      throw new Refusal(cardField === "credit_card_number" ? r.message : r.message.replace("credit card number", cardField), field)
    }
    return { destination: { kind: "card", summary: `${r.card.bin}******${r.card.lastFour}` }, card: r.card }
  }
  const refId = f["destination-card-ref-id"]
  if (refId) {
    const ref = c.store.cardRefs.get(refId)
    if (!ref || ref.login !== c.merchant.login) throw new Refusal(`Unknown destination-card-ref-id: ${refId}`, "destination-card-ref-id")
    return { destination: { kind: "card-ref", summary: `card-ref ${refId}` }, card: ref.card }
  }
  if (f.account_number) {
    if (!f.bank_name) throw new Refusal("bank_name is required with account_number", "bank_name")
    if (!f.bank_branch) throw new Refusal("bank_branch is required with account_number", "bank_branch")
    return { destination: { kind: "bank", summary: `${f.bank_name} / ${f.bank_branch} / ****${f.account_number.slice(-4)}` } }
  }
  if (f.wallet_id) return { destination: { kind: "wallet", summary: `wallet ${f.wallet_id}` } }
  if (f.phone) return { destination: { kind: "phone", summary: `phone ****${f.phone.slice(-4)}` } }
  throw new Refusal(
    "A payout destination is required: credit_card_number (or destination-card-no), destination-card-ref-id, account_number, wallet_id or phone",
    "destination",
  )
}

/** PAYOUT (v2) and PAYOUT_V4_CHECK. */
export function payout(c: Ctx): Record<string, string | number> {
  const prior = priorOrder(c)
  if (prior) return prior.firstReply
  const { destination, card } = destinationOf(c, c.req.fields)
  const check = c.req.op.name === "PAYOUT_V4_CHECK"
  // a card that cannot receive money is declined by its issuer (eligibility.ts), as pan-eligibility would have said
  const eligible = isEligible(c.store, card, c.req.fields["destination-card-ref-id"])
  const order = createOrder(
    c,
    { kind: "payout", txType: check ? "payout-check" : "payout", amountMinor: amountOf(c), card, destination, behaviour: eligible ? "approve" : "ineligible" },
    asyncReply,
  )
  c.engine.startInitial(order)
  return order.firstReply
}

export function payoutPay(c: Ctx): Record<string, string | number> {
  const order = followUpOrder(c)
  const init = initialTxn(order)
  if (order.kind !== "payout" || init.type !== "payout-check") {
    throw new Refusal("payout-pay needs an order created by payout-check", "orderid")
  }
  const last = latestTxn(order)
  if (last !== init) return asyncReply(order, last.serial) // already paying or paid: same reply
  if (init.status !== "approved") throw new Refusal("payout-check has not been approved for this order", "orderid")
  const tx = c.engine.beginFollowUp(order, { type: "payout", operation: "PAYOUT_V4_PAY", amountMinor: order.amountMinor })
  return asyncReply(order, tx.serial)
}

export function payoutForm(c: Ctx): Record<string, string | number> {
  const prior = priorOrder(c)
  if (prior) return prior.firstReply
  const order = createOrder(
    c,
    { kind: "payout", txType: "payout", amountMinor: amountOf(c), behaviour: "approve", hosted: { page: "payout", submitted: false } },
    (o, serial) => formReply(c, o, serial),
  )
  return order.firstReply
}

/** TRANSFER_V4: from a card (its CVV2 picks the outcome, 3-D Secure included) to a card number or card reference. */
export function transfer(c: Ctx): Record<string, string | number> {
  const prior = priorOrder(c)
  if (prior) return prior.firstReply
  const f = c.req.fields
  let destination: Destination
  let eligible = true
  if (f["destination-card-no"]) {
    const r = summariseCard({ number: f["destination-card-no"], expMonth: "12", expYear: "2099", holder: "" })
    if (!r.ok) throw new Refusal(r.message.replace("credit card number", "destination-card-no"), "destination-card-no")
    destination = { kind: "card", summary: `${r.card.bin}******${r.card.lastFour}` }
    eligible = isEligible(c.store, r.card)
  } else if (f["destination-card-ref-id"]) {
    const d = destinationOf(c, { "destination-card-ref-id": f["destination-card-ref-id"] })
    destination = d.destination
    eligible = isEligible(c.store, d.card, f["destination-card-ref-id"])
  } else {
    throw new Refusal("A destination is required: destination-card-no or destination-card-ref-id", "destination-card-no")
  }
  const source = f.credit_card_number ? cardFromFields(c) : undefined
  const order = createOrder(
    c,
    {
      kind: "transfer", txType: "transfer", amountMinor: amountOf(c), card: source?.card, destination,
      behaviour: !eligible ? "ineligible" : source?.behaviour ?? "approve",
    },
    asyncReply,
  )
  c.engine.startInitial(order)
  return order.firstReply
}

/**
 * PAN_ELIGIBILITY_SEND: asynchronous like every order (the reply acknowledges, STATUS or the callback gives the
 * outcome): approved when the card may take part in a money transfer, declined with the reason when not
 * (eligibility.ts). The card comes by reference (`sending-card-ref-id`) or number (`sending-card-number` with its
 * expiry), exactly one of them.
 */
export function panEligibility(c: Ctx): Record<string, string | number> {
  const prior = priorOrder(c)
  if (prior) return prior.firstReply
  const f = c.req.fields
  const refId = f["sending-card-ref-id"]
  const number = f["sending-card-number"]
  if (refId && number) throw new Refusal("Send the card once: sending-card-ref-id or sending-card-number, not both", "sending-card-number")
  let card: CardSummary
  if (refId) {
    const ref = c.store.cardRefs.get(refId)
    if (!ref || ref.login !== c.merchant.login) throw new Refusal(`Unknown sending-card-ref-id: ${refId}`, "sending-card-ref-id")
    card = ref.card
  } else if (number) {
    const r = summariseCard({ number, expMonth: f.expire_month || "12", expYear: f.expire_year || "2099", holder: f["card-printed-name"] ?? "" })
    if (!r.ok) throw new Refusal(r.message.replace("credit card number", "sending-card-number"), r.field === "credit_card_number" ? "sending-card-number" : r.field)
    card = r.card
  } else {
    throw new Refusal("A card is required: sending-card-ref-id or sending-card-number", "sending-card-ref-id")
  }
  const behaviour = isEligible(c.store, card, refId) ? "approve" : "ineligible"
  const order = createOrder(c, { kind: "pan-eligibility", txType: "pan-eligibility", amountMinor: 0n, card, behaviour }, asyncReply)
  if (refId) order.cardRefId = refId
  c.engine.startInitial(order)
  return order.firstReply
}

/**
 * Initiating operations that charge or check a card: SALE, PREAUTH, ACCOUNT_VERIFICATION, REBILL (direct) and
 * SALEFORM, PREAUTHFORM, PAYMENTFORM, ACCOUNT_VERIFICATION_FORM (hosted page). Also the shared `initiate` step that
 * makes client_orderid idempotent per endpoint: the same request again returns the first reply (same orderid);
 * a different request with a used client_orderid is refused.
 */
import { createHmac, randomBytes } from "node:crypto"
import { Refusal, type Ctx } from "./api-context"
import { asyncReply, formReply } from "./api-replies"
import { behaviourFromCvv, summariseCard, type Behaviour, type CardSummary } from "./cards"
import { toMinor } from "./money"
import type { Order, OrderKind, Txn } from "./state"

/** Keyed hash of the canonical field set (sorted, control and oauth_* left out), so retries compare without storing PAN/CVV. */
export function fingerprint(c: Ctx): string {
  const entries = Object.entries(c.req.fields)
    .filter(([k]) => k !== "control" && !k.startsWith("oauth_"))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const h = createHmac("sha256", c.fingerprintKey).update(c.req.op.name)
  for (const [k, v] of entries) h.update(`\u0000${k}\u0001${v}`)
  return h.digest("hex")
}

export interface NewOrder {
  kind: OrderKind
  txType: string
  amountMinor: bigint
  currency?: string
  card?: CardSummary
  behaviour?: Behaviour
  hosted?: Order["hosted"]
  destination?: Order["destination"]
}

/**
 * Returns the earlier order for an identical retry, throws for a conflicting reuse, or undefined when the
 * client_orderid is new.
 */
export function priorOrder(c: Ctx): Order | undefined {
  const field = c.req.op.clientOrderIdField ?? "client_orderid"
  const cid = c.req.fields[field]
  const existing = c.store.findByClientOrderId(c.req.endpointKey, cid)
  if (!existing) return undefined
  if (existing.fingerprint !== fingerprint(c)) {
    throw new Refusal(`${field} ${cid} is already used by another request on this endpoint`, field)
  }
  return existing
}

/** Creates and stores the order with its initial transaction in `processing`. */
export function createOrder(c: Ctx, n: NewOrder, reply: (o: Order, serial: string) => Record<string, string | number>): Order {
  const f = c.req.fields
  const field = c.req.op.clientOrderIdField ?? "client_orderid"
  const tx: Txn = {
    serial: c.store.newSerial(), type: n.txType, operation: c.req.op.name, status: "processing",
    amountMinor: n.amountMinor, createdAt: Date.now(),
  }
  const order: Order = {
    orderid: c.store.newOrderid(),
    merchant: c.merchant,
    endpointKey: c.req.endpointKey,
    endpointId: c.req.endpointId,
    operation: c.req.op.name,
    kind: n.kind,
    clientOrderId: f[field],
    currency: f.currency ? f.currency.toUpperCase() : undefined,
    amountMinor: n.amountMinor,
    card: n.card,
    behaviour: n.behaviour,
    payer: { email: f.email || undefined, phone: f.phone || undefined, firstName: f.first_name, lastName: f.last_name },
    urls: {
      redirect: f.redirect_url || undefined,
      serverCallback: f.server_callback_url || undefined,
      notify: f.notify_url || undefined,
    },
    merchantData: f.merchant_data,
    description: f.order_desc || undefined,
    hosted: n.hosted,
    pageToken: randomBytes(12).toString("hex"),
    txns: [tx],
    history: [],
    authorizedMinor: 0n, capturedMinor: 0n, returnedMinor: 0n, releasedMinor: 0n, chargedBackMinor: 0n,
    settled: false, voided: false,
    destination: n.destination,
    fingerprint: fingerprint(c),
    firstReply: {},
  }
  order.firstReply = reply(order, tx.serial)
  c.store.addOrder(order)
  c.engine.note(order, `${c.req.op.name} received on endpoint ${c.req.endpointId}`)
  return order
}

export function amountOf(c: Ctx, positive = true): bigint {
  const f = c.req.fields
  const m = toMinor(f.amount, f.currency)
  if (!m.ok) throw new Refusal(m.message, "amount")
  if (positive && m.minor <= 0n) throw new Refusal("amount must be greater than zero", "amount")
  return m.minor
}

/** Reads the card fields of a direct request into a summary + behaviour (the CVV2 is dropped here). */
export function cardFromFields(c: Ctx): { card: CardSummary; behaviour: Behaviour } {
  const f = c.req.fields
  const r = summariseCard({
    number: f.credit_card_number ?? "", expMonth: f.expire_month ?? "", expYear: f.expire_year ?? "",
    holder: f.card_printed_name ?? "", cvv2: f.cvv2 ?? "",
  })
  if (!r.ok) throw new Refusal(r.message, r.field)
  return { card: r.card, behaviour: behaviourFromCvv(f.cvv2 ?? "") }
}

const TX_TYPE: Record<string, { kind: OrderKind; type: string }> = {
  SALE: { kind: "sale", type: "sale" },
  PREAUTH: { kind: "preauth", type: "preauth" },
  SALEFORM: { kind: "sale", type: "sale" },
  PAYMENTFORM: { kind: "sale", type: "sale" },
  PREAUTHFORM: { kind: "preauth", type: "preauth" },
  ACCOUNT_VERIFICATION: { kind: "account-verification", type: "account-verification" },
  ACCOUNT_VERIFICATION_FORM: { kind: "account-verification", type: "account-verification" },
}

/** SALE, PREAUTH, ACCOUNT_VERIFICATION. */
export function directCardPayment(c: Ctx): Record<string, string | number> {
  const prior = priorOrder(c)
  if (prior) return prior.firstReply
  const t = TX_TYPE[c.req.op.name]
  const amount = t.kind === "account-verification" ? 0n : amountOf(c)
  const { card, behaviour } = cardFromFields(c)
  const order = createOrder(c, { kind: t.kind, txType: t.type, amountMinor: amount, currency: c.req.fields.currency, card, behaviour }, asyncReply)
  c.engine.startInitial(order)
  return order.firstReply
}

/** SALEFORM, PREAUTHFORM, PAYMENTFORM, ACCOUNT_VERIFICATION_FORM: the payer enters the card on the sandbox's page. */
export function hostedCardPayment(c: Ctx): Record<string, string | number> {
  const prior = priorOrder(c)
  if (prior) return prior.firstReply
  const t = TX_TYPE[c.req.op.name]
  const amount = t.kind === "account-verification" ? 0n : amountOf(c)
  const order = createOrder(
    c,
    { kind: t.kind, txType: t.type, amountMinor: amount, hosted: { page: "card", submitted: false } },
    (o, serial) => formReply(c, o, serial),
  )
  return order.firstReply
}

/** REBILL: charges a card reference with the cardholder absent (no 3-D Secure). Approves unless steered or a cvv2 says otherwise. */
export function rebill(c: Ctx): Record<string, string | number> {
  const prior = priorOrder(c)
  if (prior) return prior.firstReply
  const f = c.req.fields
  const ref = c.store.cardRefs.get(f.cardrefid)
  if (!ref || ref.login !== c.merchant.login) throw new Refusal(`Unknown cardrefid: ${f.cardrefid}`, "cardrefid")
  let behaviour: Behaviour = f.cvv2 ? behaviourFromCvv(f.cvv2) : ref.behaviour
  if (behaviour === "3ds" || behaviour === "approve-no-3ds") behaviour = "approve"
  const order = createOrder(
    c, { kind: "sale", txType: "sale", amountMinor: amountOf(c), card: ref.card, behaviour }, asyncReply,
  )
  order.cardRefId = ref.cardRefId
  c.engine.startInitial(order)
  return order.firstReply
}

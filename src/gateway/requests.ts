/**
 * One typed builder per operation the plugin sends (issue 33: wire names are written once). Callers pass domain values
 * (clientOrderId, orderId, cardRefId, an amount as a decimal string…) and get the request fields in the gateway's
 * spelling, which lives here and in operations.ts only; each builder is one short recipe, in the manner of
 * activemerchant's add_* helpers. `prepareRequest` (request.ts) still checks every field against the operations table
 * before anything is sent. No Medusa imports.
 */
import type { RequestFields } from "./request"

export type { RequestFields }

/** The gateway order a follow-up, a STATUS or a card reference is about. */
export interface OrderRef {
  clientOrderId: string
  /** the gateway's order id (`paynet-order-id`); STATUS may go by the client order id alone */
  orderId?: string
}

/** The payer as sale / preauth / their hosted pages and the account verification send it. */
export interface Payer {
  email: string
  firstName?: string
  lastName?: string
  phone: string
  street: string
  city: string
  zip: string
  /** ISO 3166 alpha-2 */
  country: string
  state?: string
  ip: string
}

export interface Card {
  holder: string
  number: string
  expMonth: string
  expYear: string
  cvv: string
}

/** Where the gateway sends the shopper back and the server callback. */
export interface ReturnUrls {
  redirectUrl?: string
  callbackUrl?: string
}

export interface OrderRequest extends ReturnUrls {
  clientOrderId: string
  description: string
  payer: Payer
}

export interface PaymentRequest extends OrderRequest {
  /** major units, decimal string */
  amount: string
  currency: string
}

/** The payer's fields (sale, preauth, their forms, account verification). */
export const payerRequestFields = (p: Payer): RequestFields => ({
  email: p.email,
  first_name: p.firstName,
  last_name: p.lastName,
  phone: p.phone,
  address1: p.street,
  city: p.city,
  zip_code: p.zip,
  country: p.country,
  state: p.state,
  ipaddress: p.ip,
})

const urlFields = (u: ReturnUrls): RequestFields => ({ redirect_url: u.redirectUrl, server_callback_url: u.callbackUrl })

const cardFields = (c: Card): RequestFields => ({
  card_printed_name: c.holder,
  credit_card_number: c.number,
  expire_month: c.expMonth,
  expire_year: c.expYear,
  cvv2: c.cvv,
})

const orderFields = (o: OrderRequest): RequestFields => ({
  client_orderid: o.clientOrderId,
  order_desc: o.description,
  ...payerRequestFields(o.payer),
  ...urlFields(o),
})

/** sale-form / preauth-form (and payment-form): the hosted page registration. */
export const hostedPaymentFields = (r: PaymentRequest): RequestFields => ({ ...orderFields(r), amount: r.amount, currency: r.currency })

/** sale / preauth with the card (direct flow). */
export const cardPaymentFields = (r: PaymentRequest & { card: Card }): RequestFields => ({ ...hostedPaymentFields(r), ...cardFields(r.card) })

/** account-verification-form: a card check without a charge (saving a card). */
export const accountVerificationFormFields = (r: OrderRequest): RequestFields => orderFields(r)

/** capture / return (no amount = in full) / void (no amount). */
export const followUpFields = (r: OrderRef & { amount?: string; currency?: string; comment?: string }): RequestFields => ({
  client_orderid: r.clientOrderId,
  orderid: r.orderId,
  amount: r.amount,
  currency: r.currency,
  comment: r.comment,
})

/** STATUS of an order (its latest transaction), or of one transaction by its serial number. */
export const statusFields = (q: OrderRef & { serialNumber?: string }): RequestFields => ({
  client_orderid: q.clientOrderId,
  orderid: q.orderId,
  "by-request-sn": q.serialNumber,
})

/** create-card-ref (v2 and v4): a card reference for an approved order. */
export const cardRefFields = (o: Required<OrderRef>): RequestFields => ({ client_orderid: o.clientOrderId, orderid: o.orderId })

/** get-card-info: a card reference's displayable details. */
export const cardInfoFields = (cardRefId: string): RequestFields => ({ cardrefid: cardRefId })

export interface Rebill {
  clientOrderId: string
  cardRefId: string
  /** major units, decimal string */
  amount: string
  currency: string
  description: string
  ip: string
  cvv?: string
  callbackUrl?: string
}

/** make-rebill: a charge of a saved card reference. */
export const rebillFields = (r: Rebill): RequestFields => ({
  client_orderid: r.clientOrderId,
  cardrefid: r.cardRefId,
  amount: r.amount,
  currency: r.currency,
  order_desc: r.description,
  ipaddress: r.ip,
  cvv2: r.cvv,
  server_callback_url: r.callbackUrl,
})

export interface RecurringPayment {
  clientOrderId: string
  cardRefId: string
  amount: string
  currency: string
  /** day | week | month (the gateway's period) and how many of them between charges */
  period: string
  interval: number
  description: string
  callbackUrl: string
  payer: { email?: string; firstName?: string; lastName?: string; country?: string; city?: string; zip?: string; street?: string; ip?: string }
}

/** create-recurring-payment (v4): a schedule of charges of a card reference. */
export const createRecurringPaymentFields = (r: RecurringPayment): RequestFields => ({
  "client-orderid": r.clientOrderId,
  amount: r.amount,
  currency: r.currency,
  period: r.period,
  interval: String(r.interval),
  cardrefid: r.cardRefId,
  order_desc: r.description,
  server_callback_url: r.callbackUrl,
  email: r.payer.email,
  "first-name": r.payer.firstName,
  "last-name": r.payer.lastName,
  country: r.payer.country,
  city: r.payer.city,
  "zip-code": r.payer.zip,
  address1: r.payer.street,
  "customer-ip": r.payer.ip,
})

/** Where a payout goes. A card reference is a saved card's. */
export type PayoutDestination =
  | { type: "card"; cardNumber: string }
  | { type: "card_ref"; cardRefId: string }
  | { type: "bank"; accountNumber: string; bankName: string; bankBranch: string }
  | { type: "wallet"; walletId: string }
  | { type: "phone"; phone: string }

export interface Payout {
  clientOrderId: string
  amount: string
  currency: string
  description: string
  purpose?: string
  callbackUrl: string
  /** the hosted payout form only */
  redirectUrl?: string
  destination?: PayoutDestination
  /** the card holder's name, for a card or a card reference */
  recipient?: string
}

/**
 * The fields of a destination. The v4 payout-check names the card `destination-card-no` (the seed's transfer field);
 * the v2 payout uses the operation table's `credit_card_number`. A card reference goes as `destination-card-ref-id`
 * (both operations list it).
 */
export function payoutDestinationFields(d: PayoutDestination, twoStep: boolean, recipient?: string): RequestFields {
  const printedName: RequestFields = recipient ? { card_printed_name: recipient.slice(0, 128) } : {}
  switch (d.type) {
    case "card":
      return { [twoStep ? "destination-card-no" : "credit_card_number"]: d.cardNumber, ...printedName }
    case "card_ref":
      return { "destination-card-ref-id": d.cardRefId, ...printedName }
    case "bank":
      return { account_number: d.accountNumber, bank_name: d.bankName, bank_branch: d.bankBranch }
    case "wallet":
      return { wallet_id: d.walletId }
    case "phone":
      return { phone: d.phone }
  }
}

const payoutFields = (p: Payout, twoStep: boolean): RequestFields => ({
  client_orderid: p.clientOrderId,
  amount: p.amount,
  currency: p.currency,
  order_desc: p.description.slice(0, 255),
  ...(p.purpose ? { purpose: p.purpose } : {}),
  server_callback_url: p.callbackUrl,
  ...(p.destination ? payoutDestinationFields(p.destination, twoStep, p.recipient) : {}),
})

/** payout (v2, one step). */
export const payoutV2Fields = (p: Payout): RequestFields => payoutFields(p, false)
/** payout-check (v4): the first of the two steps. */
export const payoutCheckFields = (p: Payout): RequestFields => payoutFields(p, true)
/** payout-form: the hosted payout page. */
export const payoutFormFields = (p: Payout): RequestFields => ({ ...payoutFields(p, false), redirect_url: p.redirectUrl })
/** payout-pay (v4): the second step, for an approved check. */
export const payoutPayFields = (o: Required<OrderRef> & { login: string }): RequestFields => ({
  client_orderid: o.clientOrderId,
  orderid: o.orderId,
  login: o.login,
})

/** The card a PAN eligibility check is about: a saved card's reference, or a card number held only in memory. */
export type EligibilityCard =
  | { type: "card_ref"; cardRefId: string }
  | { type: "card"; cardNumber: string; holder?: string; expMonth?: string; expYear?: string }

export interface PanEligibility {
  /** This check's own merchant order id (one per check intent): a lost reply is settled by STATUS on it. */
  clientOrderId: string
  card: EligibilityCard
  callbackUrl?: string
}

/**
 * pan-eligibility/send (HMAC-SHA1): may this card take part in a money transfer? The seed's example spells the order
 * id `client-order-id` and the reference `sending-card-ref-id`; a card number goes as `sending-card-number` with its
 * printed name and expiry (the vendor page's alternative). Exactly one of the two is sent.
 */
export function panEligibilityFields(r: PanEligibility): RequestFields {
  const card: RequestFields =
    r.card.type === "card_ref"
      ? { "sending-card-ref-id": r.card.cardRefId }
      : {
          "sending-card-number": r.card.cardNumber,
          "card-printed-name": r.card.holder?.slice(0, 128),
          expire_month: r.card.expMonth,
          expire_year: r.card.expYear,
        }
  return { "client-order-id": r.clientOrderId, ...card, server_callback_url: r.callbackUrl }
}

export interface Transfer {
  /** The transfer's own merchant order id (one per transfer intent). */
  clientOrderId: string
  /** major units, decimal string */
  amount: string
  currency: string
  description: string
  /** Where the money goes: a card reference (a saved card, or the original payment's card) or a card number. */
  destination: { type: "card_ref"; cardRefId: string } | { type: "card"; cardNumber: string }
  callbackUrl: string
  ip?: string
  purpose?: string
}

/**
 * transfer (v4, RSA-SHA256) from the merchant to a card: no sending card, the destination by reference
 * (`destination-card-ref-id`) or number (`destination-card-no`), the seed's transfer field names.
 */
export const transferFields = (t: Transfer): RequestFields => ({
  client_orderid: t.clientOrderId,
  amount: t.amount,
  currency: t.currency,
  order_desc: t.description.slice(0, 255),
  ...(t.destination.type === "card_ref" ? { "destination-card-ref-id": t.destination.cardRefId } : { "destination-card-no": t.destination.cardNumber }),
  server_callback_url: t.callbackUrl,
  ipaddress: t.ip,
  purpose: t.purpose,
})

/** get-balance by endpoint: the balance provider PaynetEasy's support named when it enabled balances. */
export const balanceByEndpointFields = (q: { provider: string }): RequestFields => ({ "balance-provider": q.provider })

/** get-balance by manager: one balance by name, or every balance of the manager's merchants when none is named. */
export const balanceByManagerFields = (q: { balanceName?: string } = {}): RequestFields => ({ "balance-name": q.balanceName })

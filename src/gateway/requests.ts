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

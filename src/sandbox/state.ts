/**
 * Everything the sandbox remembers, in Maps keyed the way requests look things up, so every request is O(1) in
 * the number of stored transactions: orders by orderid, by (endpoint, client_orderid), hosted/ACS pages by token,
 * card references by id. Lists for inspection are built on demand (never on the request path).
 * State lives in memory for the life of one sandbox; `reset()` empties it (ids keep counting, so a stale id from
 * before a reset can never name a new order).
 */
import type { OperationName } from "../gateway/operations"
import type { Behaviour, CardSummary } from "./cards"
import type { SandboxMerchant } from "./options"

export type TxStatus = "processing" | "approved" | "declined" | "error" | "filtered" | "unknown"
export const FINAL: ReadonlySet<string> = new Set(["approved", "declined", "error", "filtered"])

export type OrderKind =
  | "sale"
  | "preauth"
  | "account-verification"
  | "payout"
  | "transfer"
  | "pan-eligibility"
  | "recurring-payment"
  | "recurring-charge"
  | "recurring-update"

/** One transaction on an order: the initial one, then captures, reversals, a void, chargebacks, a payout pay. */
export interface Txn {
  serial: string
  /** transaction-type as the gateway reports it: sale, preauth, capture, reversal, void, chargeback, payout, ... */
  type: string
  /** The operation that created it (faults and callbacks target operation names). */
  operation: OperationName | "CHARGEBACK"
  status: TxStatus
  /** Amount this transaction moves, minor units; null when it has none (void). */
  amountMinor: bigint | null
  /** A dispute's reason code (chargeback, second chargeback, retrieval request, fraud marker, chargeback reversal). */
  reasonCode?: string
  /** For a reversal: whether it releases an uncaptured hold (preauth) rather than refunding captured money. */
  releasesHold?: boolean
  error?: { code: string; message: string }
  createdAt: number
  finishedAt?: number
}

export interface HistoryEntry {
  at: string
  event: string
}

export interface Order {
  orderid: string
  merchant: SandboxMerchant
  /** "id:1111" or "group:2222": the namespace of client_orderid. */
  endpointKey: string
  /** The id from the URL (endpoint or group), reported as end-point-id. */
  endpointId: string
  operation: OperationName
  kind: OrderKind
  clientOrderId: string
  currency?: string
  /** Requested amount of the initial transaction, minor units (0 for account verification). */
  amountMinor: bigint
  card?: CardSummary
  /** Outcome flag derived from the CVV2 at submission (the CVV2 itself is not kept). */
  behaviour?: Behaviour
  payer: { email?: string; phone?: string; firstName?: string; lastName?: string }
  urls: { redirect?: string; serverCallback?: string; notify?: string }
  merchantData?: string
  /** The request's order_desc: the shop's words the payer reads on the hosted pages (never the merchant's ids). */
  description?: string
  /** Hosted-page orders wait for the payer: "card" page, "payout" destination page. */
  hosted?: { page: "card" | "payout"; submitted: boolean }
  /** Token of this order's pages (hosted form, ACS challenge, result). */
  pageToken: string
  threeDS?: { pending: boolean; methodCompInd?: string; result?: "pass" | "fail"; via?: string }
  txns: Txn[]
  history: HistoryEntry[]
  authorizedMinor: bigint
  capturedMinor: bigint
  returnedMinor: bigint
  releasedMinor: bigint
  chargedBackMinor: bigint
  settled: boolean
  voided: boolean
  cardRefId?: string
  recurringPaymentId?: string
  /** A recurring payment's schedule and its charges so far (kind "recurring-payment" only); see recurring.ts. */
  schedule?: RecurringSchedule
  destination?: { kind: "card" | "card-ref" | "bank" | "wallet" | "phone"; summary: string }
  payoutPaid?: boolean
  /** Keyed hash of the initiating request's canonical field set (idempotency); never shown. */
  fingerprint: string
  /** The reply of the initiating request, repeated for an identical retry. */
  firstReply: Record<string, string | number>
}

export interface RecurringSchedule {
  period: "day" | "week" | "month" | "year"
  interval: number
  /** ISO time of the next charge the gateway would make on its own. */
  nextChargeAt: string
  /** orderids of the charges made so far, oldest first. */
  chargeOrderids: string[]
  state: "active" | "stopped"
  /** YYYY-MM-DD (UTC) set by update-recurring-payment: on reaching it the schedule stops (recurring.ts). */
  finishDate?: string
  /** max-repeats-number: the schedule stops once it has made this many charges. */
  maxRepeats?: number
}

/** A merchant's balance as get-balance reports it (minor units of `currency`). */
export interface MerchantBalance {
  name: string
  currency: string
  /** current balance, holds and reserve included */
  amountMinor: bigint
  shortTermHoldsMinor: bigint
  rollingReserveMinor: bigint
  /** whether PaynetEasy's support enabled get-balance for this account */
  access: boolean
  /** when a figure last changed (ISO) */
  updatedAt: string
}

export interface CardRef {
  cardRefId: string
  login: string
  card: CardSummary
  behaviour: Behaviour
  fromOrderid: string
}

export interface CallbackAttempt {
  id: number
  orderid: string
  clientOrderId: string
  type: string
  status: string
  operation: string
  /** The URL called, including the gateway parameters. */
  url: string
  params: Record<string, string>
  attempt: number
  /** The merchant's HTTP status, or undefined when the request failed (then `error`). */
  httpStatus?: number
  error?: string
  at: string
  /** "sent", or "suppressed" when a callback-off fault swallowed it. */
  outcome: "sent" | "suppressed"
}

export class Store {
  orders = new Map<string, Order>()
  byClientOrderId = new Map<string, string>() // `${endpointKey}|${client_orderid}` → orderid
  byPageToken = new Map<string, string>()
  cardRefs = new Map<string, CardRef>()
  /** One card ref per (order) so CARDREF is idempotent. */
  cardRefByOrder = new Map<string, string>()
  /** recurring-payment-id → orderid of the create-recurring-payment order (which holds the schedule). */
  recurringPayments = new Map<string, string>()
  /** Inspection only: client_orderid → orderids across endpoints. */
  orderidsByClientOrderId = new Map<string, string[]>()
  callbacks: CallbackAttempt[] = []
  /** Steered eligibility (eligibility.ts): by card reference, and by `bin|lastFour`. */
  cardRefEligibility = new Map<string, boolean>()
  cardEligibility = new Map<string, boolean>()
  /** Balances per merchant login (balance-book.ts); made on first use from the merchant's defaults. */
  balances = new Map<string, MerchantBalance>()
  requestCounts = new Map<string, number>()
  connections = 0
  private nextOrder = 1000001
  private nextSerial = 1
  private nextRef = 5000001

  newOrderid(): string {
    return String(this.nextOrder++)
  }
  newSerial(): string {
    const hex = (this.nextSerial++).toString(16).padStart(12, "0")
    return `00000000-0000-0000-0000-${hex}`
  }
  newRefId(): string {
    return String(this.nextRef++)
  }

  addOrder(o: Order): void {
    this.orders.set(o.orderid, o)
    this.byClientOrderId.set(`${o.endpointKey}|${o.clientOrderId}`, o.orderid)
    this.byPageToken.set(o.pageToken, o.orderid)
    const list = this.orderidsByClientOrderId.get(o.clientOrderId)
    if (list) list.push(o.orderid)
    else this.orderidsByClientOrderId.set(o.clientOrderId, [o.orderid])
  }

  findByClientOrderId(endpointKey: string, clientOrderId: string): Order | undefined {
    const id = this.byClientOrderId.get(`${endpointKey}|${clientOrderId}`)
    return id === undefined ? undefined : this.orders.get(id)
  }

  reset(): void {
    this.orders.clear()
    this.byClientOrderId.clear()
    this.byPageToken.clear()
    this.cardRefs.clear()
    this.cardRefByOrder.clear()
    this.recurringPayments.clear()
    this.orderidsByClientOrderId.clear()
    this.callbacks = []
    this.cardRefEligibility.clear()
    this.cardEligibility.clear()
    this.balances.clear()
    this.requestCounts.clear()
    this.connections = 0
  }
}

export const latestTxn = (o: Order): Txn => o.txns[o.txns.length - 1]
export const initialTxn = (o: Order): Txn => o.txns[0]

/** Money currently held or captured on the order: authorized − released − returned − charged back. */
export const netMinor = (o: Order): bigint =>
  o.authorizedMinor - o.releasedMinor - o.returnedMinor - o.chargedBackMinor

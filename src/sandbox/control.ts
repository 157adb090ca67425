/**
 * SandboxControl: in-process steering and inspection, the same powers as the HTTP API under /__sandbox/.
 * Nothing here is part of the PaynetEasy API; tests and the demo use it to look inside and to bend the gateway.
 * Views never contain a PAN or CVV2 (there are none stored) nor the control key.
 */
import type { Behaviour, CardSummary } from "./cards"
import { BEHAVIOURS } from "./cards"
import type { CallbackSender } from "./callbacks"
import type { Engine, FinalStatus } from "./engine"
import { DISPUTE_KINDS, type DisputeKind } from "../gateway/disputes"
import type { FaultBook, FaultRule, StoredFault } from "./faults"
import { fromMinor, toMinor } from "./money"
import type { NonceBook } from "./oauth-verify"
import type { HeldRequest, ProcessingDesk } from "./slow-processing"
import { reportedAmountMinor } from "./api-replies"
import { recurringOrder, runNextCharge, type ChargeOutcome } from "./recurring"
import { balanceOf, steerBalance } from "./balance-book"
import { setEligibility } from "./eligibility"
import type { MerchantBalance } from "./state"
import { initialTxn, latestTxn, type CallbackAttempt, type Order, type RecurringSchedule, type Store } from "./state"

export interface TxnView {
  serial: string
  type: string
  operation: string
  status: string
  amount: string | null
  error?: { code: string; message: string }
  /** a dispute's reason code */
  reasonCode?: string
  createdAt: string
  finishedAt?: string
}

export interface TransactionView {
  orderid: string
  clientOrderId: string
  login: string
  endpointId: string
  endpointKey: string
  operation: string
  kind: string
  /** Status and type of the latest transaction on the order (what STATUS reports). */
  status: string
  transactionType: string
  /** What STATUS reports as `amount` (see api-replies.reportedAmountMinor). */
  amount: string
  initialAmount: string
  currency?: string
  authorized: string
  captured: string
  returned: string
  released: string
  chargedBack: string
  settled: boolean
  voided: boolean
  card?: CardSummary & { behaviour?: Behaviour }
  threeDS?: Order["threeDS"]
  destination?: Order["destination"]
  cardRefId?: string
  recurringPaymentId?: string
  schedule?: RecurringSchedule
  urls: Order["urls"]
  hostedPageUrl?: string
  acsUrl?: string
  transactions: TxnView[]
  history: Order["history"]
}

export interface BalanceView {
  login: string
  name: string
  currency: string
  amount: string
  shortTermHolds: string
  rollingReserve: string
  live: string
  access: boolean
  updatedAt: string
}

export interface SandboxControl {
  /** Every order, oldest first (inspection only: builds a list). */
  transactions(): TransactionView[]
  transaction(orderid: string): TransactionView | undefined
  byClientOrderId(clientOrderId: string): TransactionView[]
  /** Every callback attempt, with the merchant's HTTP status. */
  callbacks(): CallbackAttempt[]
  /** TCP connections accepted since start or the last reset (keep-alive check). */
  connections(): number
  /** API requests received per operation name since start or the last reset. */
  requests(): Record<string, number>
  /** Forgets all orders, card references, callbacks, counters, nonces and faults; stops timers and pending callbacks; drops held (slow-processing) requests unprocessed. */
  reset(): void
  /** Settles one order, or all approved unsettled ones; returns the orderids settled. */
  settle(orderid?: string): string[]
  /** Ends the processing (or unknown) latest transaction of the order now. */
  forceStatus(orderid: string, status: FinalStatus, message?: string): TransactionView
  /** Injects an approved chargeback (all remaining captured money when amount is omitted; amount in major units). */
  chargeback(orderid: string, amount?: string): TransactionView
  /**
   * Injects an approved dispute of any kind (chargeback, second_chargeback, retrieval_request, fraud_marker,
   * chargeback_reversal), amount in major units (Engine.dispute says the defaults), with a reason code (a default per kind).
   */
  dispute(orderid: string, kind: DisputeKind, opts?: { amount?: string; reasonCode?: string }): TransactionView
  /** Requests held by a slow-processing fault: the gateway has them and has not processed them yet. */
  processing(): HeldRequest[]
  /** Ends the processing of one held request (by id) or of all, now: each is processed and answered before this returns. */
  finishProcessing(id?: number): number[]
  addFault(rule: FaultRule): StoredFault
  faults(): StoredFault[]
  removeFault(id: number): boolean
  clearFaults(): void
  /** Marks a card (by reference, or BIN + last four) eligible or not to receive money (pan-eligibility, payouts). */
  setCardEligibility(target: { cardRefId?: string; bin?: string; lastFour?: string }, eligible: boolean): void
  /** A merchant's balance as get-balance reports it (major units). */
  balance(login?: string): BalanceView
  /** Sets a merchant's balance figures (major units) or its get-balance access. */
  setBalance(login: string | undefined, figures: { amount?: string; shortTermHolds?: string; rollingReserve?: string; currency?: string; access?: boolean }): BalanceView
  /** Changes how REBILL on this card reference ends (default approve). */
  setCardRefBehaviour(cardRefId: string, behaviour: Behaviour): void
  /** A recurring payment (its create order, with the schedule and the charges' orderids). */
  recurringPayment(recurringPaymentId: string): TransactionView
  /** Runs the recurring payment's next charge now: approved, declined, or approved with its callback lost. */
  runRecurringCharge(recurringPaymentId: string, outcome: ChargeOutcome): TransactionView
  /** Resolves when the latest transaction is no longer processing, or waits for the payer (3DS challenge, hosted form); rejects after timeoutMs. */
  waitForOutcome(orderid: string, timeoutMs?: number): Promise<TransactionView>
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString())

export function createControl(deps: {
  store: Store
  engine: Engine
  faults: FaultBook
  callbacks: CallbackSender
  nonces: NonceBook
  processing: ProcessingDesk
  pageUrl: (kind: "form" | "acs", token: string) => string
}): SandboxControl {
  const { store, engine, faults, callbacks, nonces, processing } = deps
  const view = (o: Order): TransactionView => {
    const m = (v: bigint) => fromMinor(v, o.currency)
    const last = latestTxn(o)
    return {
      orderid: o.orderid, clientOrderId: o.clientOrderId, login: o.merchant.login, endpointId: o.endpointId,
      endpointKey: o.endpointKey, operation: o.operation, kind: o.kind, status: last.status, transactionType: last.type,
      amount: m(reportedAmountMinor(o)), initialAmount: m(o.amountMinor), currency: o.currency,
      authorized: m(o.authorizedMinor), captured: m(o.capturedMinor), returned: m(o.returnedMinor),
      released: m(o.releasedMinor), chargedBack: m(o.chargedBackMinor), settled: o.settled, voided: o.voided,
      card: o.card ? { ...o.card, behaviour: o.behaviour } : undefined,
      threeDS: o.threeDS ? { ...o.threeDS } : undefined,
      destination: o.destination, cardRefId: o.cardRefId, recurringPaymentId: o.recurringPaymentId,
      schedule: o.schedule ? { ...o.schedule, chargeOrderids: [...o.schedule.chargeOrderids] } : undefined, urls: { ...o.urls },
      hostedPageUrl: o.hosted ? deps.pageUrl("form", o.pageToken) : undefined,
      acsUrl: o.threeDS?.pending ? deps.pageUrl("acs", o.pageToken) : undefined,
      transactions: o.txns.map((t) => ({
        serial: t.serial, type: t.type, operation: t.operation, status: t.status,
        amount: t.amountMinor === null ? null : m(t.amountMinor), error: t.error, reasonCode: t.reasonCode,
        createdAt: iso(t.createdAt) as string, finishedAt: iso(t.finishedAt),
      })),
      history: o.history.map((h) => ({ ...h })),
    }
  }
  const merchantOf = (login: string | undefined) => {
    const m = login === undefined ? engine.opts.merchants[0] : engine.opts.merchants.find((x) => x.login === login)
    if (!m) throw new Error(`unknown merchant login ${login}`)
    return m
  }
  const balanceView = (login: string, b: MerchantBalance): BalanceView => ({
    login, name: b.name, currency: b.currency, amount: fromMinor(b.amountMinor, b.currency),
    shortTermHolds: fromMinor(b.shortTermHoldsMinor, b.currency), rollingReserve: fromMinor(b.rollingReserveMinor, b.currency),
    live: fromMinor(b.amountMinor - b.shortTermHoldsMinor - b.rollingReserveMinor, b.currency), access: b.access, updatedAt: b.updatedAt,
  })
  const must = (orderid: string): Order => {
    const o = store.orders.get(String(orderid))
    if (!o) throw new Error(`unknown orderid ${orderid}`)
    return o
  }
  const control: SandboxControl = {
    transactions: () => [...store.orders.values()].map(view),
    transaction: (orderid) => {
      const o = store.orders.get(String(orderid))
      return o ? view(o) : undefined
    },
    byClientOrderId: (cid) => (store.orderidsByClientOrderId.get(cid) ?? []).map((id) => view(must(id))),
    callbacks: () => store.callbacks.map((c) => ({ ...c, params: { ...c.params } })),
    connections: () => store.connections,
    requests: () => Object.fromEntries(store.requestCounts),
    reset: () => {
      processing.cancelAll()
      engine.cancelAll()
      callbacks.cancelAll()
      store.reset()
      nonces.clear()
      faults.clear()
    },
    settle: (orderid) => {
      const targets = orderid === undefined ? [...store.orders.values()] : [must(orderid)]
      return targets.filter((o) => engine.settle(o)).map((o) => o.orderid)
    },
    forceStatus: (orderid, status, message) => {
      const o = must(orderid)
      engine.force(o, status, message)
      return view(o)
    },
    chargeback: (orderid, amount) => control.dispute(orderid, "chargeback", { amount }),
    dispute: (orderid, kind, opts = {}) => {
      const o = must(orderid)
      if (!DISPUTE_KINDS.includes(kind)) throw new Error(`kind must be one of ${DISPUTE_KINDS.join(", ")}`)
      let minor: bigint | undefined
      if (opts.amount !== undefined) {
        const r = toMinor(opts.amount, o.currency ?? "EUR")
        if (!r.ok) throw new Error(r.message)
        minor = r.minor
      }
      engine.dispute(o, kind, minor, opts.reasonCode)
      return view(o)
    },
    processing: () => processing.list(),
    finishProcessing: (id) => processing.finish(id),
    addFault: (rule) => faults.add(rule),
    faults: () => faults.list(),
    removeFault: (id) => faults.remove(id),
    clearFaults: () => faults.clear(),
    setCardEligibility: (target, eligible) => setEligibility(store, target, eligible),
    balance: (login) => {
      const m = merchantOf(login)
      return balanceView(m.login, balanceOf(store, m))
    },
    setBalance: (login, figures) => {
      const m = merchantOf(login)
      return balanceView(m.login, steerBalance(store, m, figures))
    },
    setCardRefBehaviour: (id, behaviour) => {
      const ref = store.cardRefs.get(id)
      if (!ref) throw new Error(`unknown card reference ${id}`)
      if (!BEHAVIOURS.includes(behaviour)) throw new Error(`behaviour must be one of ${BEHAVIOURS.join(", ")}`)
      ref.behaviour = behaviour
    },
    recurringPayment: (rpId) => view(recurringOrder(store, rpId)),
    runRecurringCharge: (rpId, outcome) => view(runNextCharge(store, engine, rpId, outcome)),
    waitForOutcome: async (orderid, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const o = must(orderid)
        const last = latestTxn(o)
        const waiting = last.status === "processing" && !(initialTxn(o) === last && (o.threeDS?.pending || (o.hosted && !o.hosted.submitted)))
        if (!waiting) return view(o)
        if (Date.now() > deadline) throw new Error(`order ${orderid} still processing after ${timeoutMs} ms`)
        await new Promise((r) => setTimeout(r, 10))
      }
    },
  }
  return control
}

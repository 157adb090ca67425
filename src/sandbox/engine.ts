/**
 * Transaction lifecycle: processing → final status after `processingMs`, the card behaviour that decides the
 * outcome, the 3-D Secure detour, and the bookkeeping of money on an order (authorized, captured, returned,
 * released, charged back). Every transition is recorded in the order's history and a final status fires a callback.
 * Timers are tracked so reset() and close() stop them.
 */
import { debitBalance } from "./balance-book"
import { DECLINE_REASONS } from "./cards"
import type { CallbackSender } from "./callbacks"
import type { FaultBook } from "./faults"
import type { ResolvedOptions } from "./options"
import { FINAL, initialTxn, latestTxn, netMinor, type Order, type Store, type TxStatus, type Txn } from "./state"
import { Timers } from "./timers"
import { disputeKindOf, disputeWireType, type DisputeKind } from "../gateway/disputes"

/** The reason code a steered dispute gets when the steering names none (Visa / Mastercard style codes). */
export const DEFAULT_REASON_CODES: Record<DisputeKind, string> = {
  chargeback: "13.1",
  second_chargeback: "4853",
  retrieval_request: "RR-28",
  fraud_marker: "TC40-6",
  chargeback_reversal: "CR-13.1",
}

export type FinalStatus = Exclude<TxStatus, "processing">

const SYNCHRONOUS_TX_TYPES = new Set(["payout-check", "recurring-payment", "recurring-update"])

export class Engine {
  private readonly timers = new Timers()

  constructor(
    readonly store: Store,
    readonly opts: ResolvedOptions,
    readonly faults: FaultBook,
    readonly callbacks: CallbackSender,
  ) {}

  note(order: Order, event: string): void {
    order.history.push({ at: new Date().toISOString(), event })
  }

  private later(ms: number, fn: () => void): void {
    this.timers.later(ms, fn)
  }

  /** The initial transaction has been created (or its card submitted): decide after processingMs. */
  startInitial(order: Order): void {
    this.note(order, `${initialTxn(order).type} processing`)
    this.later(this.opts.processingMs, () => this.finishInitial(order))
  }

  private finishInitial(order: Order): void {
    const tx = initialTxn(order)
    if (tx.status !== "processing" || latestTxn(order) !== tx) return
    const steered = this.faults.outcomeFor(tx.operation)
    if (steered === "processing") return this.note(order, `${tx.type} held in processing by steering (until forced)`)
    if (steered) return this.finalize(order, tx, steered, steered === "approved" ? undefined : DECLINE_REASONS.forced)
    const b = order.behaviour ?? "approve"
    switch (b) {
      case "approve":
      case "approve-no-3ds":
        return this.finalize(order, tx, "approved")
      case "3ds":
        if (!order.threeDS || order.threeDS.result === undefined) {
          order.threeDS = { ...(order.threeDS ?? {}), pending: true }
          this.note(order, "3-D Secure challenge required (stays processing until the payer or an upload answers)")
          return
        }
        return order.threeDS.result === "pass"
          ? this.finalize(order, tx, "approved")
          : this.finalize(order, tx, "declined", DECLINE_REASONS["3ds-failed"])
      case "unknown":
        return this.finalize(order, tx, "unknown", { code: "217", message: "Acquirer network problem: status unknown" })
      default:
        return this.finalize(order, tx, "declined", DECLINE_REASONS[b])
    }
  }

  /** The 3-D Secure challenge was answered (ACS page, CRes or PaRes upload). */
  threeDSAnswered(order: Order, pass: boolean, via: string): void {
    order.threeDS = { ...(order.threeDS ?? {}), pending: false, result: pass ? "pass" : "fail", via }
    this.note(order, `3-D Secure ${pass ? "passed" : "failed"} via ${via}; processing`)
    this.later(this.opts.processingMs, () => this.finishInitial(order))
  }

  /** Adds a follow-up transaction in `processing` and decides it after processingMs. */
  beginFollowUp(order: Order, tx: Omit<Txn, "status" | "createdAt" | "serial">): Txn {
    const full: Txn = { ...tx, serial: this.store.newSerial(), status: "processing", createdAt: Date.now() }
    order.txns.push(full)
    this.note(order, `${full.type} processing${full.amountMinor !== null ? ` (${full.amountMinor} minor)` : ""}`)
    this.later(this.opts.processingMs, () => {
      if (full.status !== "processing") return
      const steered = this.faults.outcomeFor(full.operation) ?? "approved"
      if (steered === "processing") return this.note(order, `${full.type} held in processing by steering (until forced)`)
      this.finalize(order, full, steered, steered === "approved" ? undefined : DECLINE_REASONS.forced)
    })
    return full
  }

  /** Sets a transaction's status and applies its money effect when approved. */
  finalize(order: Order, tx: Txn, status: FinalStatus, error?: { code: string; message: string }): void {
    tx.status = status
    tx.finishedAt = Date.now()
    tx.error = status === "approved" ? undefined : error
    if (order.threeDS?.pending) order.threeDS.pending = false
    if (status === "approved") this.applyApproval(order, tx)
    this.note(order, `${tx.type} ${status}${tx.error ? ` (${tx.error.code} ${tx.error.message})` : ""}`)
    // payout-check and create- / update-recurring-payment are answered synchronously: no callback (a recurring
    // payment's charges each have their own, recurring.ts)
    if (FINAL.has(status) && !SYNCHRONOUS_TX_TYPES.has(tx.type)) this.callbacks.send(order, tx)
    if (status === "approved" && order.capturedMinor > 0n && !order.settled && this.opts.settleAfterMs !== undefined) {
      this.later(this.opts.settleAfterMs, () => this.settle(order))
    }
  }

  private applyApproval(order: Order, tx: Txn): void {
    const amt = tx.amountMinor ?? 0n
    switch (tx.type) {
      case "sale":
      case "transfer":
      case "payout":
        order.authorizedMinor = order.amountMinor
        order.capturedMinor = order.amountMinor
        if (tx.type === "payout") order.payoutPaid = true
        // money the merchant sends out leaves its balance (a card-to-card transfer with a sending card does not)
        if (tx.type === "payout" || (tx.type === "transfer" && !order.card)) debitBalance(this.store, order.merchant, order.amountMinor, order.currency)
        return
      case "preauth":
        order.authorizedMinor = order.amountMinor
        return
      case "capture":
        order.capturedMinor += amt
        return
      case "reversal":
        if (tx.releasesHold) order.releasedMinor += amt
        else order.returnedMinor += amt
        return
      case "void":
        order.releasedMinor += netMinor(order)
        order.voided = true
        return
      default: {
        // disputes: a chargeback and a second chargeback take captured money, a reversal gives it back, a retrieval
        // request and a fraud marker move none
        const kind = disputeKindOf(tx.type)
        if (kind === "chargeback" || kind === "second_chargeback") order.chargedBackMinor += amt
        else if (kind === "chargeback_reversal") order.chargedBackMinor -= amt
        return
      }
    }
  }

  settle(order: Order): boolean {
    if (order.settled || initialTxn(order).status !== "approved" || order.capturedMinor === 0n || order.voided) return false
    order.settled = true
    this.note(order, "settled")
    return true
  }

  /** Steering: ends the processing (or unknown) latest transaction now with the given status. */
  force(order: Order, status: FinalStatus, message?: string): Txn {
    const tx = latestTxn(order)
    if (tx.status !== "processing" && tx.status !== "unknown") {
      throw new Error(`order ${order.orderid}: latest transaction is ${tx.type}/${tx.status}, not processing`)
    }
    if (order.hosted && !order.hosted.submitted) order.hosted.submitted = true
    this.note(order, `forced to ${status} by steering`)
    this.finalize(order, tx, status, status === "approved" ? undefined : { ...DECLINE_REASONS.forced, ...(message ? { message } : {}) })
    return tx
  }

  /** Steering: a chargeback of captured money (all that remains when no amount is given). */
  chargeback(order: Order, amountMinor?: bigint): Txn {
    return this.dispute(order, "chargeback", amountMinor)
  }

  /**
   * Steering: a dispute, approved at once (its callback goes to notify_url like a chargeback's). A chargeback and a
   * second chargeback take captured money (all that remains by default), a chargeback reversal gives back money
   * charged back (all of it by default), a retrieval request and a fraud marker move none (their amount, the
   * remaining captured money by default, is what they are about).
   */
  dispute(order: Order, kind: DisputeKind, amountMinor?: bigint, reasonCode?: string): Txn {
    const remaining = order.capturedMinor - order.returnedMinor - order.chargedBackMinor
    if (initialTxn(order).status !== "approved" || order.capturedMinor <= 0n) {
      throw new Error(`order ${order.orderid} has no captured money to dispute`)
    }
    const max = kind === "chargeback_reversal" ? order.chargedBackMinor : kind === "chargeback" || kind === "second_chargeback" ? remaining : order.capturedMinor
    if (max <= 0n) {
      throw new Error(kind === "chargeback_reversal" ? `order ${order.orderid} has no charged-back money to reverse` : `order ${order.orderid} has no captured money to charge back`)
    }
    const amt = amountMinor ?? (kind === "retrieval_request" || kind === "fraud_marker" ? (remaining > 0n ? remaining : max) : max)
    if (amt <= 0n || amt > max) throw new Error(`${kind.replace(/_/g, " ")} amount must be between 1 and ${max} minor units`)
    const tx: Txn = {
      serial: this.store.newSerial(), type: disputeWireType(kind), operation: "CHARGEBACK", status: "processing",
      amountMinor: amt, reasonCode: reasonCode ?? DEFAULT_REASON_CODES[kind], createdAt: Date.now(),
    }
    order.txns.push(tx)
    this.finalize(order, tx, "approved")
    return tx
  }

  cancelAll(): void {
    this.timers.cancelAll()
  }
}

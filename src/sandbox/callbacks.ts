/**
 * Outgoing server callbacks: an HTTP GET to the merchant's URL with the outcome parameters appended (the merchant's
 * own query parameters are kept), retried with exponential backoff until the merchant answers 200, up to
 * `callbackAttempts` attempts. Every attempt is recorded for inspection with the merchant's status code.
 *
 * Routing (notes §7): the initial transaction's callback goes to server_callback_url (else notify_url). Follow-ups
 * (capture, reversal, void, chargeback, payout pay) go to notify_url, else — a sandbox convenience, on by default —
 * to server_callback_url.
 */
import type { FaultBook } from "./faults"
import { callbackParams } from "./outcome-params"
import type { ResolvedOptions } from "./options"
import type { CallbackAttempt, Order, Store, Txn } from "./state"
import { Timers } from "./timers"

interface Job {
  orderid: string
  clientOrderId: string
  type: string
  status: string
  operation: string
  url: string
  params: Record<string, string>
}

export class CallbackSender {
  private readonly timers = new Timers()
  private inflight = new Set<AbortController>()
  private parked: Job[] = []
  private nextId = 1

  constructor(
    private readonly store: Store,
    private readonly opts: ResolvedOptions,
    private readonly faults: FaultBook,
  ) {}

  /** Called when `tx` reaches a final status. */
  send(order: Order, tx: Txn): void {
    const initial = order.txns[0] === tx
    const target = initial
      ? order.urls.serverCallback ?? order.urls.notify
      : order.urls.notify ?? (this.opts.followUpCallbacksToServerCallbackUrl ? order.urls.serverCallback : undefined)
    if (!target) return
    const params = callbackParams(order, tx)
    let url: string
    try {
      const u = new URL(target)
      for (const [k, v] of Object.entries(params)) u.searchParams.append(k, v)
      url = u.toString()
    } catch {
      this.opts.logger(`callback for order ${order.orderid} skipped: invalid URL`)
      return
    }
    const job: Job = {
      orderid: order.orderid, clientOrderId: order.clientOrderId, type: tx.type, status: tx.status,
      operation: tx.operation, url, params,
    }
    const f = this.faults.forCallback(tx.operation)
    if (f.off) {
      this.record(job, 1, { outcome: "suppressed" })
      return
    }
    const delay = this.opts.callbackDelayMs + f.delayMs
    if (f.outOfOrder) {
      this.parked.push(job)
      this.later(f.outOfOrder.holdMs, () => this.flushParked())
      return
    }
    this.later(delay, () => {
      void this.deliver(job, 1).then(() => {
        this.flushParked()
        if (f.duplicate) void this.deliver(job, 1)
      })
    })
  }

  private flushParked(): void {
    const jobs = this.parked
    this.parked = []
    for (const j of jobs) void this.deliver(j, 1)
  }

  private later(ms: number, fn: () => void): void {
    this.timers.later(ms, fn)
  }

  private record(job: Job, attempt: number, r: Partial<CallbackAttempt> & { outcome: CallbackAttempt["outcome"] }): void {
    this.store.callbacks.push({
      id: this.nextId++, orderid: job.orderid, clientOrderId: job.clientOrderId, type: job.type, status: job.status,
      operation: job.operation, url: job.url, params: job.params, attempt, at: new Date().toISOString(), ...r,
    })
  }

  private async deliver(job: Job, attempt: number): Promise<void> {
    const gen = this.timers.generation
    const ac = new AbortController()
    this.inflight.add(ac)
    const timeout = setTimeout(() => ac.abort(), 10_000)
    let httpStatus: number | undefined
    let error: string | undefined
    try {
      const res = await fetch(job.url, { method: "GET", redirect: "manual", signal: ac.signal })
      httpStatus = res.status
      await res.arrayBuffer().catch(() => undefined)
    } catch (e) {
      error = e instanceof Error ? e.message : String(e)
    } finally {
      clearTimeout(timeout)
      this.inflight.delete(ac)
    }
    if (gen !== this.timers.generation) return
    this.record(job, attempt, { outcome: "sent", httpStatus, error })
    if (httpStatus === 200) return
    if (attempt >= this.opts.callbackAttempts) {
      this.opts.logger(`callback for order ${job.orderid} (${job.type}/${job.status}) gave up after ${attempt} attempts`)
      return
    }
    const wait = this.opts.callbackBackoffMs * 2 ** (attempt - 1)
    this.later(wait, () => void this.deliver(job, attempt + 1))
  }

  /** Drops pending deliveries (reset / close). */
  cancelAll(): void {
    this.timers.cancelAll()
    for (const ac of this.inflight) ac.abort()
    this.inflight.clear()
    this.parked = []
  }
}

/**
 * The slow-processing fault's desk: requests the gateway HAS (read and admitted) and is still processing. A real
 * gateway that has a request goes on with it whether or not its client waits; the transaction it makes appears in
 * STATUS only when the processing is over. So a request held here has not touched the store yet: STATUS shows the
 * order's previous state (or no order at all for a new client_orderid) until the desk releases it, then the
 * operation's handler runs as if the request had just arrived, and its reply goes to the client if the client is
 * still there.
 *
 * A held request is released when its `ms` have passed (a timer) or at once by `finish()` (tests: no wall clock).
 * `cancelAll()` (reset / close) drops everything held: those requests are never processed.
 */
import { Timers } from "./timers"

export interface HeldRequest {
  id: number
  operation: string
  clientOrderId?: string
  orderid?: string
  receivedAt: string
  dueAt: string
  /** the client closed its connection while the request was being processed (it gave up waiting) */
  clientGone: boolean
}

export type HeldOutcome = "processed" | "dropped"

interface Entry {
  view: HeldRequest
  run: (outcome: HeldOutcome) => void
}

export class ProcessingDesk {
  private readonly timers = new Timers()
  private readonly held = new Map<number, Entry>()
  private nextId = 1

  /**
   * Holds a request for `ms`. `run` is called once, synchronously on release: "processed" when its time is over
   * (timer or finish: the caller processes it and answers), "dropped" when reset or close threw it away.
   * Returns a function that marks the request's client as gone (its socket closed early).
   */
  hold(info: { operation: string; clientOrderId?: string; orderid?: string }, ms: number, run: (outcome: HeldOutcome) => void): () => void {
    const id = this.nextId++
    const now = Date.now()
    const view: HeldRequest = {
      id, operation: info.operation, clientOrderId: info.clientOrderId, orderid: info.orderid,
      receivedAt: new Date(now).toISOString(), dueAt: new Date(now + ms).toISOString(), clientGone: false,
    }
    this.held.set(id, { view, run })
    this.timers.later(ms, () => this.release(id, "processed"))
    return () => {
      view.clientGone = true
    }
  }

  private release(id: number, outcome: HeldOutcome): boolean {
    const e = this.held.get(id)
    if (!e) return false
    this.held.delete(id)
    e.run(outcome)
    return true
  }

  /** What is being processed now, oldest first. */
  list(): HeldRequest[] {
    return [...this.held.values()].map((e) => ({ ...e.view }))
  }

  /**
   * Ends the processing of one held request (by id) or of all, now, oldest first; returns the ids released. Each
   * request is processed (its handler run, its reply sent) before finish returns.
   */
  finish(id?: number): number[] {
    const ids = id === undefined ? [...this.held.keys()] : this.held.has(id) ? [id] : []
    return ids.filter((i) => this.release(i, "processed"))
  }

  cancelAll(): void {
    this.timers.cancelAll()
    for (const id of [...this.held.keys()]) this.release(id, "dropped")
  }
}

/**
 * Fault injection and outcome steering. A rule can target one operation name (SALE, CAPTURE, ...) or all, and
 * can be one-shot (`times: 1`) or standing until cleared. Rules are few; matching walks the rule list, never the
 * stored transactions.
 *
 * Request faults: latency (before the request is read: a client that gives up meanwhile loses it), slow-processing
 * (the gateway has read and admitted the request and keeps processing it for `ms` whether or not the client waits;
 * STATUS shows its transaction only when that is over — slow-processing.ts), http-500, connection-reset (socket
 * destroyed before processing), response-lost (the
 * request is processed, then the socket is destroyed without a reply), unreadable-200 (the request is processed,
 * then answered HTTP 200 with a reply no client can read: `variant` garbage bytes, the reply truncated half-way, or
 * an HTML page under a wrong content type — what a broken proxy or a gateway bug gives), status-foreign (STATUS is
 * answered with ANOTHER order's data: `orderid`, else the newest other order of the merchant — a gateway or proxy
 * that mixes transactions up; the real sandbox refuses a mismatched client_orderid, so only this reproduces it).
 * Callback faults: callback-delay, callback-off, callback-duplicate, callback-out-of-order (held back and sent after
 * the next callback, or after holdMs).
 * Steering: outcome (the next transaction of that operation ends with this status instead of the card's behaviour;
 * `processing` keeps it processing until `forceStatus` ends it — a transaction the gateway never decides by itself).
 */
import type { TxStatus } from "./state"

export type FaultRule =
  | { kind: "latency"; ms: number; operation?: string; times?: number }
  | { kind: "slow-processing"; ms: number; operation?: string; times?: number }
  | { kind: "http-500"; operation?: string; times?: number }
  | { kind: "connection-reset"; operation?: string; times?: number }
  | { kind: "response-lost"; operation?: string; times?: number }
  | { kind: "unreadable-200"; variant?: UnreadableVariant; operation?: string; times?: number }
  | { kind: "status-foreign"; orderid?: string; operation?: string; times?: number }
  | { kind: "callback-delay"; ms: number; operation?: string; times?: number }
  | { kind: "callback-off"; operation?: string; times?: number }
  | { kind: "callback-duplicate"; operation?: string; times?: number }
  | { kind: "callback-out-of-order"; operation?: string; times?: number; holdMs?: number }
  | { kind: "outcome"; status: TxStatus; operation?: string; times?: number }

export const FAULT_KINDS = [
  "latency", "slow-processing", "http-500", "connection-reset", "response-lost", "unreadable-200", "status-foreign", "callback-delay", "callback-off", "callback-duplicate",
  "callback-out-of-order", "outcome",
] as const

export const UNREADABLE_VARIANTS = ["garbage", "truncated", "wrong-content-type"] as const
export type UnreadableVariant = (typeof UNREADABLE_VARIANTS)[number]

export type StoredFault = FaultRule & { id: number }

export interface RequestFaults {
  latencyMs: number
  /** slow-processing: hold the admitted request this long before processing it (0 = process at once) */
  slowMs: number
  terminal?: "http-500" | "connection-reset" | "response-lost" | "unreadable-200"
  /** unreadable-200: how the reply is spoiled */
  unreadable?: UnreadableVariant
  /** status-foreign: answer this STATUS with another order's data (this orderid, or "" for the newest other one) */
  foreignOrderid?: string
}

export interface CallbackFaults {
  delayMs: number
  off: boolean
  duplicate: boolean
  outOfOrder?: { holdMs: number }
}

const TERMINAL = new Set(["http-500", "connection-reset", "response-lost", "unreadable-200"])
const OUTCOMES = new Set(["approved", "declined", "error", "filtered", "unknown", "processing"])

export class FaultBook {
  private rules: StoredFault[] = []
  private nextId = 1

  /** Validates and stores a rule; throws Error with a readable message on a malformed one. */
  add(rule: FaultRule): StoredFault {
    if (!rule || !(FAULT_KINDS as readonly string[]).includes(rule.kind)) {
      throw new Error(`unknown fault kind; expected one of ${FAULT_KINDS.join(", ")}`)
    }
    if ((rule.kind === "latency" || rule.kind === "slow-processing" || rule.kind === "callback-delay") && !(Number(rule.ms) >= 0)) {
      throw new Error(`${rule.kind} needs ms >= 0`)
    }
    if (rule.kind === "outcome" && !OUTCOMES.has(rule.status)) {
      throw new Error("outcome needs status approved|declined|error|filtered|unknown|processing")
    }
    if (rule.kind === "unreadable-200" && rule.variant !== undefined && !UNREADABLE_VARIANTS.includes(rule.variant)) {
      throw new Error(`unreadable-200 variant must be one of ${UNREADABLE_VARIANTS.join(", ")}`)
    }
    if (rule.kind === "status-foreign" && rule.operation !== undefined && rule.operation.toUpperCase() !== "STATUS") {
      throw new Error("status-foreign applies to STATUS only")
    }
    if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times > 0)) {
      throw new Error("times must be a positive integer")
    }
    const stored = { ...rule, id: this.nextId++ } as StoredFault
    if (stored.operation) stored.operation = stored.operation.toUpperCase()
    this.rules.push(stored)
    return stored
  }

  list(): StoredFault[] {
    return this.rules.map((r) => ({ ...r }))
  }

  remove(id: number): boolean {
    const before = this.rules.length
    this.rules = this.rules.filter((r) => r.id !== id)
    return this.rules.length !== before
  }

  clear(): void {
    this.rules = []
  }

  /** Takes (and counts down) the rules of the given kinds that match the operation. */
  private take(kinds: ReadonlySet<string>, operation: string, firstOnly: (r: StoredFault) => boolean): StoredFault[] {
    const hit: StoredFault[] = []
    let terminalTaken = false
    for (const r of this.rules) {
      if (!kinds.has(r.kind)) continue
      if (r.operation && r.operation !== operation) continue
      if (firstOnly(r)) {
        if (terminalTaken) continue
        terminalTaken = true
      }
      hit.push(r)
    }
    for (const r of hit) {
      if (r.times !== undefined) r.times -= 1
    }
    this.rules = this.rules.filter((r) => r.times === undefined || r.times > 0)
    return hit
  }

  forRequest(operation: string): RequestFaults {
    const kinds = new Set(["latency", "slow-processing", ...TERMINAL, ...(operation === "STATUS" ? ["status-foreign"] : [])])
    const hit = this.take(kinds, operation, (r) => TERMINAL.has(r.kind) || r.kind === "status-foreign")
    const out: RequestFaults = { latencyMs: 0, slowMs: 0 }
    for (const r of hit) {
      if (r.kind === "latency") out.latencyMs += r.ms
      else if (r.kind === "slow-processing") out.slowMs += r.ms
      else if (r.kind === "status-foreign") out.foreignOrderid = r.orderid ?? ""
      else {
        out.terminal = r.kind as RequestFaults["terminal"]
        if (r.kind === "unreadable-200") out.unreadable = r.variant ?? "garbage"
      }
    }
    return out
  }

  forCallback(operation: string): CallbackFaults {
    const kinds = new Set(["callback-delay", "callback-off", "callback-duplicate", "callback-out-of-order"])
    const hit = this.take(kinds, operation, () => false)
    const out: CallbackFaults = { delayMs: 0, off: false, duplicate: false }
    for (const r of hit) {
      if (r.kind === "callback-delay") out.delayMs += r.ms
      else if (r.kind === "callback-off") out.off = true
      else if (r.kind === "callback-duplicate") out.duplicate = true
      else if (r.kind === "callback-out-of-order") out.outOfOrder = { holdMs: r.holdMs ?? 2000 }
    }
    return out
  }

  /** The steered outcome for the next transaction of this operation, if any. */
  outcomeFor(operation: string): TxStatus | undefined {
    const hit = this.take(new Set(["outcome"]), operation, () => true)
    const r = hit[0]
    return r && r.kind === "outcome" ? r.status : undefined
  }
}

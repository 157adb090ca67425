/**
 * The capture / refund / void ledger the provider keeps in a Payment's `data` (`captures[]`, `refunds[]`, one entry
 * per Medusa Capture / Refund keyed by its id; `voidEntry` for the void), read for reconciliation.
 *
 * The provider follows a capture or return to a final status for a few seconds only (a checkout or admin request
 * cannot wait longer); when the gateway still says `processing` / `unknown`, it records the entry with that status
 * (and `pending: true`) and Medusa keeps its Capture / Refund row. Such an entry is "pending": reconciliation asks the
 * gateway STATUS for its serial number until it is final, then writes the final status here. Pure functions only.
 */
import { isApproved, isFinal } from "../../gateway/statuses"
import { pendingLedgerEntries } from "./session-data"

export type LedgerKind = "capture" | "refund" | "void"

export type LedgerEntryView = {
  id: string
  amount?: string
  currency?: string
  status?: string
  serialNumber?: string
  pending?: boolean
  afterSerial?: string
  sentAt?: string
  [key: string]: unknown
}

export type PendingEntry = { kind: LedgerKind; target: string; entry: LedgerEntryView }

/** The gateway's transaction type for each ledger kind (STATUS `transaction-type`). */
export const GATEWAY_TYPE: Record<LedgerKind, string> = { capture: "capture", refund: "reversal", void: "void" }

const FIELD = { capture: "captures", refund: "refunds", void: "voidEntry" } as const

/** Kept for callers of the public name; the one definition is gateway/statuses.ts. */
export const isFinalStatus = (status: string | undefined) => isFinal(status)

export const targetFor = (kind: LedgerKind, id: string) => `${kind}:${id}`

export function parseTarget(target: string): { kind: LedgerKind; id: string } | undefined {
  const m = /^(capture|refund|void):(.+)$/.exec(target)
  return m ? { kind: m[1] as LedgerKind, id: m[2] } : undefined
}

const isEntry = (e: unknown): e is LedgerEntryView => !!e && typeof e === "object" && typeof (e as LedgerEntryView).id === "string"

function entries(data: Record<string, unknown> | null | undefined, kind: LedgerKind): LedgerEntryView[] {
  const list = data?.[FIELD[kind]]
  if (kind === "void") return isEntry(list) ? [list] : []
  return Array.isArray(list) ? (list.filter((e) => e && typeof e === "object" && typeof e.id === "string") as LedgerEntryView[]) : []
}

/**
 * Every ledger entry of the payment data that still waits for a final gateway status — the provider's own reading
 * (`pendingLedgerEntries`: `pending: true` or a non-final status), so provider and reconciliation agree on it.
 */
export function pendingEntries(data: Record<string, unknown> | null | undefined): PendingEntry[] {
  return pendingLedgerEntries(data ?? undefined).map((p) => ({
    kind: p.kind,
    target: targetFor(p.kind, p.id),
    entry: { id: p.id, amount: p.amount, currency: p.currency, status: p.status, serialNumber: p.serialNumber, afterSerial: p.afterSerial, sentAt: p.sentAt },
  }))
}

/**
 * The serial numbers the ledger already gives to one of its entries (captures, refunds, the void): a transaction that
 * is one of them is that entry's, never another's (reconciliation must not adopt it for an entry still not shown).
 */
export function claimedSerials(data: Record<string, unknown> | null | undefined): Set<string> {
  const all = [...entries(data, "capture"), ...entries(data, "refund"), ...entries(data, "void")]
  return new Set(all.map((e) => e.serialNumber).filter((s): s is string => typeof s === "string" && s !== ""))
}

export function findEntry(data: Record<string, unknown> | null | undefined, target: string): LedgerEntryView | undefined {
  const t = parseTarget(target)
  return t ? entries(data, t.kind).find((e) => e.id === t.id) : undefined
}

/**
 * The `data` patch that writes a final gateway status onto one entry: the whole list of that kind, every other entry
 * unchanged. The caller writes `{ ...data, ...patch }` (Medusa merges JSON on update; the full object is safe either way).
 */
export function withFinalStatus(
  data: Record<string, unknown>,
  target: string,
  status: string,
  extra: { errorCode?: string; errorMessage?: string; checkedAt: string }
): Record<string, unknown> | undefined {
  const t = parseTarget(target)
  if (!t) return undefined
  const list = entries(data, t.kind)
  if (!list.some((e) => e.id === t.id)) return undefined
  const finalize = (e: LedgerEntryView) => ({
    ...e,
    status,
    pending: false,
    reconciledAt: extra.checkedAt,
    ...(isApproved(status) ? {} : { error: { code: extra.errorCode, message: extra.errorMessage ?? `${status} by the gateway` } }),
  })
  if (t.kind === "void") return { voidEntry: finalize(list[0]) }
  return { [FIELD[t.kind]]: list.map((e) => (e.id === t.id ? finalize(e) : e)) }
}

/** The `data` patch that puts one entry back as it was (the reconciliation workflow's compensation). */
export function withEntry(data: Record<string, unknown>, target: string, previous: LedgerEntryView): Record<string, unknown> | undefined {
  const t = parseTarget(target)
  if (!t) return undefined
  if (t.kind === "void") return { voidEntry: previous }
  const list = entries(data, t.kind)
  if (!list.some((e) => e.id === t.id)) return undefined
  return { [FIELD[t.kind]]: list.map((e) => (e.id === t.id ? previous : e)) }
}

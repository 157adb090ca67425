/**
 * Our part of payment session / payment `data`, and the one function that reads it.
 *
 * `data` is public (returned to the storefront) and partly storefront-written at session creation, so:
 * it never holds secrets, PAN or CVV; amounts in it are for display and bookkeeping only — every money-moving
 * call takes its amount from Medusa's input or Medusa's own rows, never from here. Unknown keys are kept
 * (the storefront's own data, e.g. `payer`, lives next to ours).
 */
import { z } from "zod"
import { safeParseLoose } from "../../gateway/loose-object"
import { INITIAL_TRANSACTION_TYPES, isFinal } from "../../gateway/statuses"

const ledgerEntry = z.looseObject({
  /** Medusa's Capture / Refund id (context.idempotency_key): a replay of the same id is a no-op. */
  id: z.string(),
  amount: z.string(),
  currency: z.string().optional(),
  status: z.string().optional(),
  serialNumber: z.string().optional(),
  /** true when the gateway refused a void and the order was returned in full instead. */
  viaReturn: z.boolean().optional(),
  /** true while the gateway has not decided (status is its real non-final status): reconciliation finishes it. */
  pending: z.boolean().optional(),
  /** Sent, its reply lost, not shown by STATUS yet: the order's latest serial before it was sent (follow-up.ts). */
  afterSerial: z.string().optional(),
  /** When such a request was sent (ISO): the processing window counts from here. */
  sentAt: z.string().optional(),
})

export const nextActionSchema = z.union([
  z.object({ type: z.literal("redirect"), url: z.string() }),
  z.object({ type: z.literal("html"), html: z.string() }),
])

/** null reads as absent: a key the provider cleared (Medusa merges JSON data, so clearing writes null). */
const cleared = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (v === null ? undefined : v), schema.optional())

export const sessionDataSchema = z.looseObject({
  session_id: z.string(),
  clientOrderId: z.string(),
  attempt: z.number().int().positive().optional(),
  // "" = cleared (a new direct attempt whose reply was lost has no gateway order id yet): read as none.
  orderId: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().optional()),
  flow: z.enum(["hosted", "direct"]),
  transactionType: z.enum(INITIAL_TRANSACTION_TYPES),
  amount: z.string(),
  currency: z.string(),
  gatewayStatus: cleared(z.string()),
  redirectUrl: cleared(z.string()),
  /** Where the return route sends the shopper: always written by the provider (null = not configured), so a
   *  storefront-supplied value can never turn the return route into an open redirect. */
  storefrontReturnUrl: z.string().nullable().optional(),
  // null = cleared: Medusa merges JSON data on update (MikroORM assign), so a key is cleared by writing null.
  nextAction: nextActionSchema.nullable().optional(),
  captures: cleared(z.array(ledgerEntry)),
  refunds: cleared(z.array(ledgerEntry)),
  voided: cleared(z.boolean()),
  /** The void transaction (cancelPayment / deletePayment), like a ledger entry. */
  voidEntry: cleared(ledgerEntry),
  error: z.object({ code: z.string().optional(), message: z.string() }).nullable().optional(),
  /** A STATUS reply that was about another payment (core/checkout/reply-match.ts): nothing of it was taken. */
  replyMismatch: z.object({ detail: z.string(), at: z.string() }).nullable().optional(),
})

export type SessionData = z.output<typeof sessionDataSchema>
export type LedgerEntry = z.output<typeof ledgerEntry>
export type NextAction = z.output<typeof nextActionSchema>

/** Parses our data or throws a clear error (no data values in the message: they are storefront-influenced). */
export function parseSessionData(data: Record<string, unknown> | undefined): SessionData {
  const result = safeParseLoose(sessionDataSchema, data ?? {})
  if (!result.success) {
    const fields = [...new Set(result.error.issues.map((i) => i.path.join(".") || "(root)"))].join(", ")
    throw new Error(`PaynetEasy: payment data is missing or malformed (${fields}); was this session created by the PaynetEasy provider?`)
  }
  return result.data
}

/** A capture / refund / void the gateway had not decided when it was recorded, with what STATUS needs to ask again. */
export interface PendingLedgerEntry {
  kind: "capture" | "refund" | "void"
  /** Medusa's Capture / Refund id ("void" for the void, "cancel" for a full return that replaced a refused void). */
  id: string
  amount: string
  currency?: string
  /** The gateway's last known status (processing, unknown, …). */
  status?: string
  clientOrderId: string
  orderId?: string
  /** The transaction's serial number: STATUS `by-request-sn`. */
  serialNumber?: string
  /** No serial yet (sent, reply lost, not shown by STATUS yet): the order's latest serial before it was sent. */
  afterSerial?: string
  sentAt?: string
}

/**
 * Pure: the ledger entries of a payment's data whose gateway status is not final (for reconciliation). Data that
 * is not ours (or malformed) has none.
 */
export function pendingLedgerEntries(data: Record<string, unknown> | undefined): PendingLedgerEntry[] {
  const parsed = sessionDataSchema.safeParse(data ?? {})
  if (!parsed.success) return []
  const d = parsed.data
  const ids = { clientOrderId: d.clientOrderId, orderId: d.orderId }
  const tagged = [
    ...(d.captures ?? []).map((e) => ({ kind: "capture" as const, e })),
    ...(d.refunds ?? []).map((e) => ({ kind: "refund" as const, e })),
    ...(d.voidEntry ? [{ kind: "void" as const, e: d.voidEntry }] : []),
  ]
  return tagged
    .filter(({ e }) => e.pending === true || !isFinal(e.status))
    .map(({ kind, e }) => ({
      kind, id: e.id, amount: e.amount, currency: e.currency, status: e.status, serialNumber: e.serialNumber,
      afterSerial: e.afterSerial, sentAt: e.sentAt, ...ids,
    }))
}

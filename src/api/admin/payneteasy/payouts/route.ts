/**
 * `POST /admin/payneteasy/payouts` (Idempotency-Key header) → `{ payout }`; `GET /admin/payneteasy/payouts`
 * (filters `status` (repeat or comma-separated), `method`; `limit`, `offset`) → `{ payouts, count, limit, offset }`.
 * Admin authentication (middlewares.ts). The body is validated (validators.ts) before anything is stored or sent;
 * the full destination goes to the workflow through the in-process vault only (payouts/destination.ts). A saved card
 * must exist and be active (400 naming destination.card_id); its masked summary comes from the card row.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { createHash } from "node:crypto"
import { normalizeAmount } from "../../../../gateway/money"
import { runCreatePayout } from "../../../../workflows/payneteasy/payouts/create-payout"
import { depositDestination, destinationSummary, discardDestination } from "../../../../core/payouts/destination"
import { payoutCard, savedCardSummary } from "../../../../core/payouts/saved-card-destination"
import { payoutService, payoutView, type PayoutRow } from "../../../../core/payouts/payout-state"
import { actorOf, idempotencyKey, invalid, sendError } from "./http"
import { createPayoutSchema, firstIssue, listPayoutsQuerySchema } from "../../../../core/payouts/payout-request"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const key = idempotencyKey(req)
  if (!key.ok) return invalid(res, "Idempotency-Key", key.message)
  const parsed = createPayoutSchema.safeParse(req.body ?? {})
  if (!parsed.success) {
    const { field, message } = firstIssue(parsed.error)
    return invalid(res, field, message)
  }
  const body = parsed.data
  const amount = normalizeAmount(body.amount, body.currency_code)
  const d = body.destination
  let summary: string | null
  try {
    summary = !d ? null : d.type === "saved_card" ? savedCardSummary(await payoutCard(req.scope, d.card_id)) : destinationSummary(d)
  } catch (e) {
    return sendError(res, e)
  }
  const canonical = JSON.stringify([body.method, amount, body.currency_code, d?.type ?? null, summary, body.recipient ?? null, body.purpose ?? null])
  const ref = d ? depositDestination(d) : null
  try {
    const { payout, replayed } = await runCreatePayout(req.scope, {
      method: body.method,
      amount,
      currency_code: body.currency_code,
      destination_type: body.destination?.type ?? null,
      destination_summary: summary,
      saved_card_id: d?.type === "saved_card" ? d.card_id : null,
      destination_ref: ref,
      recipient: body.recipient ?? null,
      purpose: body.purpose ?? null,
      idempotency_key: key.key,
      request_hash: createHash("sha256").update(canonical).digest("hex"),
      actor: actorOf(req),
    })
    res.status(replayed ? 200 : 201).json({ payout: payoutView(payout) })
  } catch (e) {
    discardDestination(ref)
    return sendError(res, e)
  }
}

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const parsed = listPayoutsQuerySchema.safeParse(req.query ?? {})
  if (!parsed.success) {
    const { field, message } = firstIssue(parsed.error)
    return invalid(res, field, message)
  }
  const q = parsed.data
  const statuses = q.status === undefined ? undefined : (Array.isArray(q.status) ? q.status : [q.status]).flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean)
  const filters: Record<string, unknown> = {}
  if (statuses?.length) filters.status = statuses
  if (q.method) filters.method = q.method
  const [rows, count] = (await payoutService(req.scope).listAndCountPaynetEasyPayouts(filters, {
    take: q.limit,
    skip: q.offset,
    order: { created_at: "DESC" },
  })) as unknown as [PayoutRow[], number]
  res.json({ payouts: rows.map(payoutView), count, limit: q.limit, offset: q.offset })
}

/**
 * GET /admin/payneteasy/attention — what a person must act on (see _lib/attention.ts): approved payments with no
 * order, chargebacks, what reconciliation gave up on, callbacks whose processing failed; each with what to do.
 * `handled=false` (default) hides handled items, `true` shows only them, `all` both. Paginated (`limit`, `offset`, `count`).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { attentionItems } from "../../../../core/dashboard/attention"
import type { AdminPaynetEasyAttentionQueryType } from "../_lib/validators"

export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminPaynetEasyAttentionQueryType>, res: MedusaResponse) => {
  const q = req.validatedQuery as AdminPaynetEasyAttentionQueryType
  const all = await attentionItems(req.scope)
  const wanted = all.filter((i) => (q.handled === "all" ? true : q.handled === "true" ? !!i.handled : !i.handled))
  res.json({ items: wanted.slice(q.offset, q.offset + q.limit), count: wanted.length, limit: q.limit, offset: q.offset })
}

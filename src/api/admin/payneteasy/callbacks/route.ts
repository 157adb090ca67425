/**
 * GET /admin/payneteasy/callbacks — the callback log (server callbacks, shopper returns, outcomes reconciliation
 * learned), newest first, filtered by status, outcome, source, Medusa order, gateway order, client_orderid and
 * received date; paginated (`limit` ≤ 100, `offset`; `count` is the total). Parameters are shown scrubbed.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PAYNETEASY_MODULE } from "../../../../modules/payneteasy"
import type PaynetEasyModuleService from "../../../../modules/payneteasy/service"
import type { CallbackRow } from "../../../../modules/payneteasy/service"
import { callbackView } from "../../../../core/dashboard/callback-view"
import type { AdminPaynetEasyCallbacksQueryType } from "../_lib/validators"

export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminPaynetEasyCallbacksQueryType>, res: MedusaResponse) => {
  const q = req.validatedQuery as AdminPaynetEasyCallbacksQueryType
  const filters: Record<string, unknown> = {}
  if (q.status) filters.status = q.status.toLowerCase()
  if (q.outcome) filters.outcome = q.outcome
  if (q.source) filters.source = q.source
  if (q.orderid) filters.orderid = q.orderid
  if (q.client_orderid) filters.client_orderid = q.client_orderid
  if (q.received_from || q.received_to) {
    filters.received_at = {
      ...(q.received_from ? { $gte: new Date(q.received_from) } : {}),
      ...(q.received_to ? { $lte: new Date(q.received_to) } : {}),
    }
  }
  if (q.order_id) {
    const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({
      entity: "order",
      fields: ["id", "payment_collections.payment_sessions.id"],
      filters: { id: q.order_id },
    })
    type OrderSessions = { payment_collections?: Array<{ payment_sessions?: Array<{ id: string } | null> | null } | null> | null }
    const sessions = (data as OrderSessions[]).flatMap((o) => (o.payment_collections ?? []).flatMap((c) => (c?.payment_sessions ?? []).flatMap((s) => (s ? [s.id] : []))))
    filters.session_id = sessions.length ? sessions : ["-none-"]
  }
  const service = req.scope.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)
  const [rows, count] = (await service.listAndCountPaynetEasyCallbacks(filters, {
    order: { received_at: "DESC" },
    skip: q.offset,
    take: q.limit,
  })) as unknown as [CallbackRow[], number]
  res.json({ callbacks: rows.map(callbackView), count, limit: q.limit, offset: q.offset })
}

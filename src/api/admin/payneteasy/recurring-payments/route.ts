/**
 * `GET /admin/payneteasy/recurring-payments?order_id=&customer_id=` → `{ recurring_payments: [{ id, order_id,
 * customer_id, recurring_payment_id, amount, currency_code, period, interval, status, charges: [...] , …}] }`, newest
 * first (at most 100); orders also by display id (`order_display_id`, `renewal_order_display_id`), the admin who
 * cancelled by e-mail (`cancelled_by_email`). Admin authentication (middlewares.ts); a malformed filter is a 400 naming it.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { PAYNETEASY_MODULE, paynetEasyModule } from "../../../../modules/payneteasy"
import type PaynetEasyModuleService from "../../../../modules/payneteasy/service"
import type { RecurringChargeRow, RecurringPaymentRow } from "../../../../modules/payneteasy/service"
import { invalid } from "../payouts/http"
import { recurringPaymentViews } from "../../../../core/dashboard/recurring-view"

const idFilter = (name: string) =>
  z.string({ error: `${name} must be a single id` }).trim().regex(/^[A-Za-z0-9_]{1,64}$/, { message: `${name} must be an id (letters, digits, _)` }).optional()

const querySchema = z.strictObject({ order_id: idFilter("order_id"), customer_id: idFilter("customer_id") })

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const parsed = querySchema.safeParse(req.query ?? {})
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = issue.code === "unrecognized_keys" ? issue.keys[0] : String(issue.path[0] ?? "query")
    return invalid(res, field, issue.code === "unrecognized_keys" ? `${field} is not a filter (order_id, customer_id)` : issue.message)
  }
  const filters: Record<string, string> = {}
  if (parsed.data.order_id) filters.order_id = parsed.data.order_id
  if (parsed.data.customer_id) filters.customer_id = parsed.data.customer_id
  const svc = paynetEasyModule(req.scope)
  // One snapshot: a charge and the status it gave its recurring payment are seen together or not at all.
  const { rows, charges } = await svc.readSnapshot(async (context) => {
    const rows = (await svc.listPaynetEasyRecurringPayments(filters, { order: { created_at: "DESC" }, take: 100 }, context)) as unknown as RecurringPaymentRow[]
    const charges = rows.length
      ? ((await svc.listPaynetEasyRecurringCharges({ recurring_payment_row_id: rows.map((r) => r.id) }, { order: { charged_at: "ASC" } }, context)) as unknown as RecurringChargeRow[])
      : []
    return { rows, charges }
  })
  res.json({ recurring_payments: await recurringPaymentViews(req.scope, rows, charges) })
}

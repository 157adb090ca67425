/**
 * react-query hooks for recurring payments (issue 14) through the shared js-sdk client (./sdk.ts): the plugin's
 * `GET /admin/payneteasy/recurring-payments?order_id=&customer_id=`, `POST …/:id/cancel` and `POST …/:id/retry`, and
 * the subscription schedule of a product or variant, written through Medusa's own admin product/variant routes
 * (metadata only).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { sdk } from "./sdk"
import { schedulePatch, type Schedule } from "./subscription-schedule"
import type { chargeView, recurringPaymentView } from "../../core/dashboard/recurring-view"
import type { Json } from "./types"

/** One charge the gateway made (core/dashboard/recurring-view.ts chargeView). */
export type RecurringCharge = Json<ReturnType<typeof chargeView>>

/** A row of the list route (core/dashboard/recurring-view.ts recurringPaymentView); the card is brand and last four only. */
export type RecurringPayment = Json<ReturnType<typeof recurringPaymentView>>

export type RecurringFilter = { order_id: string } | { customer_id: string }

const KEY = ["payneteasy", "recurring-payments"] as const

export function useRecurringPayments(filter: RecurringFilter | undefined) {
  return useQuery({
    queryKey: [...KEY, filter ?? {}],
    enabled: !!filter,
    queryFn: () =>
      sdk.client.fetch<{ recurring_payments: RecurringPayment[] }>("/admin/payneteasy/recurring-payments", { query: filter }),
    // a set-up still running (a retry waiting on Medusa's step retries) is polled until it settles
    refetchInterval: (query) => (query.state.data?.recurring_payments.some((r) => r.status === "pending") ? 2_000 : false),
  })
}

export function useCancelRecurringPayment() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      sdk.client.fetch<{ recurring_payment: RecurringPayment; gateway_cancelled: boolean; note: string }>(
        `/admin/payneteasy/recurring-payments/${id}/cancel`,
        { method: "POST" }
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  })
}

/** Sets up a recurring payment that needs attention again (`POST …/:id/retry`); answers the row as the set-up left it. */
export function useRetryRecurringSetUp() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      sdk.client.fetch<{ recurring_payment: RecurringPayment }>(`/admin/payneteasy/recurring-payments/${id}/retry`, { method: "POST" }),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  })
}

/** Which record the schedule is stored on: a product, or one of its variants (the variant's wins at checkout). */
export type ScheduleTarget = { kind: "product"; productId: string } | { kind: "variant"; productId: string; variantId: string }

/** Sets (or, with null, removes) `metadata.payneteasy_recurring` and nothing else, through Medusa's admin API. */
export function useSaveSchedule(target: ScheduleTarget) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (schedule: Schedule | null) => {
      const body = { metadata: schedulePatch(schedule) }
      if (target.kind === "product") await sdk.admin.product.update(target.productId, body)
      else await sdk.admin.product.updateVariant(target.productId, target.variantId, body)
    },
    // The dashboard's own queries for the product/variant (its keys start with "products"/"product_variants"…).
    onSuccess: () => qc.invalidateQueries(),
  })
}

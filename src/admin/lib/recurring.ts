/**
 * react-query hooks for recurring payments (issue 14) through the shared js-sdk client (./sdk.ts): the plugin's
 * `GET /admin/payneteasy/recurring-payments?order_id=&customer_id=`, `POST …/:id/cancel`, `POST …/:id/retry` and
 * `POST …/:id/retry-charge`, and
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

/** The query key every recurring-payments list starts with: what a mutation that changes a subscription refreshes. */
export const RECURRING_KEY = ["payneteasy", "recurring-payments"] as const

export function useRecurringPayments(filter: RecurringFilter | undefined) {
  return useQuery({
    queryKey: [...RECURRING_KEY, filter ?? {}],
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
    onSuccess: () => qc.invalidateQueries({ queryKey: RECURRING_KEY }),
  })
}

/** Sets up a recurring payment that needs attention again (`POST …/:id/retry`); answers the row as the set-up left it. */
export function useRetryRecurringSetUp() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      sdk.client.fetch<{ recurring_payment: RecurringPayment }>(`/admin/payneteasy/recurring-payments/${id}/retry`, { method: "POST" }),
    onSuccess: () => qc.invalidateQueries({ queryKey: RECURRING_KEY }),
  })
}

/** The answer of `POST …/:id/retry-charge` (api/admin/payneteasy/recurring-payments/[id]/retry-charge/route.ts). */
export type RetryChargeAnswer = {
  outcome: "approved" | "declined" | "pending"
  message: string
  recurring_payment?: RecurringPayment
  retry?: { state: string; amount: string; currency_code: string; renewal_order_id: string | null; gateway_order_id: string | null }
}

/**
 * "Retry the charge" of a past-due subscription: approved (200), pending (202: the card may have been charged) or
 * declined (400, the route's only 400 for the empty body this sends) are answers; a refusal (409: not past due, no
 * card, another charge running), "not sent" (502) or an unknown subscription (404) is an error with the server's words.
 */
export function useRetryCharge() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (url: string): Promise<RetryChargeAnswer> => {
      try {
        const body = await sdk.client.fetch<Omit<RetryChargeAnswer, "outcome"> & { type?: string }>(url, { method: "POST", body: {} })
        return { ...body, outcome: body.type === "payment_pending" ? "pending" : "approved" }
      } catch (e) {
        if ((e as { status?: number })?.status === 400) return { outcome: "declined", message: (e as Error).message }
        throw e
      }
    },
    onSettled: () => Promise.all([
      qc.invalidateQueries({ queryKey: RECURRING_KEY }),
      qc.invalidateQueries({ queryKey: ["payneteasy", "attention"] }),
    ]),
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

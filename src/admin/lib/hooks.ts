/**
 * react-query hooks over the plugin's admin routes, through the shared js-sdk client (./sdk.ts). Query keys start
 * with "payneteasy" so a mutation can refresh what it changed.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { sdk } from "./sdk"
import { RECURRING_KEY } from "./recurring"
import type { AttentionItem, CallbackEntry, DoctorProvider, OrderPanel } from "./types"

export const keys = {
  order: (id: string) => ["payneteasy", "order", id] as const,
  callbacks: (q: Record<string, string | number | undefined>) => ["payneteasy", "callbacks", q] as const,
  attention: (q: Record<string, string | number | undefined>) => ["payneteasy", "attention", q] as const,
}

const clean = (q: Record<string, string | number | undefined>) =>
  Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ""))

export function useOrderPanel(orderId: string) {
  return useQuery({
    queryKey: keys.order(orderId),
    queryFn: () => sdk.client.fetch<{ order: OrderPanel }>(`/admin/payneteasy/orders/${orderId}`),
  })
}

export function useCheckOrder(orderId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () =>
      sdk.client.fetch<{ order: OrderPanel; check: { checked: number; errors: Array<{ session_id: string; message: string }> } }>(
        `/admin/payneteasy/orders/${orderId}/check`,
        { method: "POST" }
      ),
    onSuccess: (data) => qc.setQueryData(keys.order(orderId), { order: data.order }),
  })
}

export type CallbackFilters = { status?: string; outcome?: string; order_id?: string; received_from?: string; received_to?: string; limit: number; offset: number }

export function useCallbacks(filters: CallbackFilters) {
  const q = clean(filters)
  return useQuery({
    queryKey: keys.callbacks(q),
    queryFn: () =>
      sdk.client.fetch<{ callbacks: CallbackEntry[]; count: number; limit: number; offset: number }>("/admin/payneteasy/callbacks", { query: q }),
  })
}

export function useAttention(filters: { handled: "false" | "true" | "all"; limit: number; offset: number }) {
  return useQuery({
    queryKey: keys.attention(filters),
    queryFn: () => sdk.client.fetch<{ items: AttentionItem[]; count: number; limit: number; offset: number }>("/admin/payneteasy/attention", { query: filters }),
  })
}

/** How many attention items are open (not handled): the sidebar's and the tab's count; refreshed every minute. */
export function useAttentionCount() {
  return useQuery({
    queryKey: keys.attention({ handled: "false", limit: 1, offset: 0, count: "only" }),
    queryFn: () => sdk.client.fetch<{ count: number }>("/admin/payneteasy/attention", { query: { handled: "false", limit: 1, offset: 0 } }),
    select: (d) => d.count,
    refetchInterval: 60_000,
  })
}

/** Runs an item's retry route (`item.retry`, e.g. setting a subscription up again) and refreshes the queue. */
export function useRetryAttention() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (item: Pick<AttentionItem, "id" | "retry">) => sdk.client.fetch<Record<string, unknown>>(item.retry!, { method: "POST" }),
    onSuccess: () => Promise.all([
      qc.invalidateQueries({ queryKey: ["payneteasy", "attention"] }),
      // a retried set-up changes the subscription that order and customer pages list (kept 90 s by the dashboard)
      qc.invalidateQueries({ queryKey: RECURRING_KEY }),
    ]),
  })
}

export function useMarkHandled() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (input: { id: string; note?: string }) =>
      sdk.client.fetch<{ item: AttentionItem }>(`/admin/payneteasy/attention/${input.id}/handled`, {
        method: "POST",
        body: input.note ? { note: input.note } : {},
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["payneteasy", "attention"] }),
  })
}

export function useDoctor() {
  return useMutation({
    mutationFn: (providerId?: string) =>
      sdk.client.fetch<{ providers: DoctorProvider[] }>("/admin/payneteasy/doctor", {
        method: "POST",
        body: providerId ? { provider_id: providerId } : {},
      }),
  })
}

/** A readable message from a js-sdk error (FetchError carries the backend's `message`). */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

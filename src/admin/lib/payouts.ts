/**
 * react-query hooks for the Payouts pages: list (status filter, pagination), one payout with its history, create and
 * confirm. Both mutations send an Idempotency-Key the caller keeps for the life of one intent (a form opening, a
 * detail view), so a double click or a retry after a network error reaches the server as the same request.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { sdk } from "./sdk"
import type { PayoutStatus } from "../../core/payouts/payout-state"
import { isFinalPayout } from "../../core/payouts/payout-phase"
import type { PayoutSettings } from "./types"
import { formatCard, lastFour } from "./formatters"

export type { PayoutStatus }
import type { historyView, payoutView } from "../../core/payouts/payout-state"
import type { Json } from "./types"

/** A payout as the admin routes answer it (core/payouts/payout-state.ts payoutView). */
export type Payout = Json<ReturnType<typeof payoutView>>

/** One history entry of a payout (historyView). */
export type PayoutHistoryEntry = Json<ReturnType<typeof historyView>>

const KEY = ["payneteasy-payouts"] as const

export function usePayouts(params: { status?: string; limit: number; offset: number }) {
  return useQuery({
    queryKey: [...KEY, "list", params],
    queryFn: () =>
      sdk.client.fetch<{ payouts: Payout[]; count: number; limit: number; offset: number }>("/admin/payneteasy/payouts", {
        query: { limit: params.limit, offset: params.offset, ...(params.status ? { status: params.status } : {}) },
      }),
    refetchInterval: 5000,
  })
}

export function usePayout(id: string) {
  return useQuery({
    queryKey: [...KEY, "detail", id],
    queryFn: () =>
      sdk.client.fetch<{ payout: Payout & { history: PayoutHistoryEntry[]; people: Record<string, string> } }>(`/admin/payneteasy/payouts/${id}`),
    refetchInterval: (q) => (isFinalPayout(q.state.data?.payout.status ?? "") ? false : 2000),
  })
}

export function useCreatePayout() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: Record<string, unknown>; idempotencyKey: string }) =>
      sdk.client.fetch<{ payout: Payout }>("/admin/payneteasy/payouts", {
        method: "POST",
        body,
        headers: { "Idempotency-Key": idempotencyKey },
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  })
}

export function useConfirmPayout(id: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (idempotencyKey: string) =>
      sdk.client.fetch<{ payout: Payout }>(`/admin/payneteasy/payouts/${id}/confirm`, {
        method: "POST",
        body: {},
        headers: { "Idempotency-Key": idempotencyKey },
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  })
}

export const newIdempotencyKey = () => `admin-${crypto.randomUUID()}`

/** The allowed currencies and per-payout limits (GET /admin/payneteasy/payout-settings), for the form to show up front. */
export function usePayoutSettings() {
  return useQuery({
    queryKey: [...KEY, "settings"],
    queryFn: () => sdk.client.fetch<PayoutSettings>("/admin/payneteasy/payout-settings"),
    staleTime: 60_000,
  })
}

export type CustomerHit = { id: string; email: string; first_name: string | null; last_name: string | null }

/** Medusa's own admin customers search (name or e-mail), for picking whose saved card receives a payout. */
export function useCustomerSearch(q: string) {
  const term = q.trim()
  return useQuery({
    queryKey: ["payneteasy", "customer-search", term],
    enabled: term.length >= 2,
    queryFn: () =>
      sdk.client.fetch<{ customers: CustomerHit[] }>("/admin/customers", {
        query: { q: term, limit: 8, fields: "id,email,first_name,last_name" },
      }),
  })
}

/**
 * A payout's destination in words, one card masking for every card: "Card •••• 1111", "Bank account … 6789".
 * `summary` is the server's masked summary (payouts/destination.ts).
 */
export function destinationWords(
  d: { type: string; summary: string | null } | null,
  words: { kind: (type: string) => string; card: string; recipientEnters: string }
): string {
  if (!d) return words.recipientEnters
  const four = lastFour(d.summary?.replace(/\s*\(.*\)\s*$/, "") ?? null)
  if (d.type === "card" || d.type === "saved_card") {
    const brand = d.type === "saved_card" ? /saved card (\S+)/.exec(d.summary ?? "")?.[1] ?? null : null
    return formatCard(brand && brand !== "card" ? brand : null, four, words.card)
  }
  return four ? `${words.kind(d.type)} •••• ${four}` : words.kind(d.type)
}

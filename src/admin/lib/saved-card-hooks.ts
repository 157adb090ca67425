/**
 * react-query hooks for saved cards in the admin (customer widget, order "charge saved card"), over the plugin's
 * `/admin/payneteasy/customers/:id/cards` and `/admin/payneteasy/orders/:id/rebill` routes and Medusa's order route,
 * through the shared js-sdk client (./sdk.ts).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import type { RebillBalance } from "../../core/saved-cards/rebill-balance"
import { sdk } from "./sdk"
import { formatCard } from "./formatters"
import type { adminCardView } from "../../core/saved-cards/records"
import type { Json } from "./types"

/** A card as the admin route lists it (core/saved-cards/records.ts adminCardView). */
export type AdminSavedCard = Json<ReturnType<typeof adminCardView>>

/** The one card masking of the dashboard (lib/formatters.ts): brand and last four, "Visa •••• 1111". */
export const cardWords = (c: Pick<AdminSavedCard, "brand" | "last4">) => formatCard(c.brand, c.last4)

/** 200 with the payment; or 202 (`type: "payment_pending"`, no payment yet) when the gateway has not confirmed it. */
export type RebillAnswer = {
  payment: { id: string; amount: string; currency_code: string; captured: boolean } | null
  gateway_status: string | null
  rebill: { rebill_id: string; replayed: boolean; state: string; amount: string; currency_code: string }
  type?: string
  message?: string
}

export const cardKeys = {
  customer: (id: string) => ["payneteasy", "customer-cards", id] as const,
  outstanding: (orderId: string) => ["payneteasy", "order-outstanding", orderId] as const,
}

export function useCustomerCards(customerId: string | undefined) {
  return useQuery({
    queryKey: cardKeys.customer(customerId ?? ""),
    enabled: !!customerId,
    queryFn: () => sdk.client.fetch<{ cards: AdminSavedCard[] }>(`/admin/payneteasy/customers/${customerId}/cards`),
  })
}

export function useDeleteCustomerCard(customerId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (cardId: string) =>
      sdk.client.fetch<{ id: string; deleted: true }>(`/admin/payneteasy/customers/${customerId}/cards/${cardId}`, { method: "DELETE" }),
    onSuccess: () => qc.invalidateQueries({ queryKey: cardKeys.customer(customerId) }),
  })
}

/** What a rebill may charge on the order, computed by the server (GET /admin/payneteasy/orders/:id/rebill). */
export function useRebillBalance(orderId: string) {
  return useQuery({
    queryKey: cardKeys.outstanding(orderId),
    queryFn: async () => (await sdk.client.fetch<{ balance: RebillBalance }>(`/admin/payneteasy/orders/${orderId}/rebill`)).balance,
  })
}

export function useRebillOrder(orderId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (input: { card_id: string; amount?: string }) =>
      sdk.client.fetch<RebillAnswer>(`/admin/payneteasy/orders/${orderId}/rebill`, { method: "POST", body: input }),
    onSettled: () => {
      qc.invalidateQueries({ queryKey: cardKeys.outstanding(orderId) })
      qc.invalidateQueries({ queryKey: ["payneteasy", "order", orderId] })
      qc.invalidateQueries({ queryKey: ["orders"] })
    },
  })
}

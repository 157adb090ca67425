/**
 * react-query hooks for the Payouts pages: list (status filter, pagination), one payout with its history, create and
 * confirm. Both mutations send an Idempotency-Key the caller keeps for the life of one intent (a form opening, a
 * detail view), so a double click or a retry after a network error reaches the server as the same request.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { sdk } from "./sdk"

export type PayoutStatus =
  | "pending" | "form_issued" | "checking" | "checked" | "check_declined" | "processing"
  | "approved" | "declined" | "error" | "filtered" | "failed"

export type Payout = {
  id: string
  method: "single" | "two_step" | "form"
  status: PayoutStatus
  amount: string
  currency_code: string
  destination: { type: string; summary: string | null } | null
  recipient: string | null
  purpose: string | null
  client_orderid: string
  gateway_order_id: string | null
  check_serial: string | null
  pay_serial: string | null
  form_url: string | null
  error_code: string | null
  error_message: string | null
  created_by: string | null
  confirmed_by: string | null
  confirmed_at: string | null
  finished_at: string | null
  created_at: string
  updated_at: string
  can_confirm: boolean
}

export type PayoutHistoryEntry = {
  id: string
  at: string
  actor: string
  event: string
  from_status: string | null
  to_status: string
  gateway: Record<string, unknown> | null
  note: string | null
}

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
    queryFn: () => sdk.client.fetch<{ payout: Payout & { history: PayoutHistoryEntry[] } }>(`/admin/payneteasy/payouts/${id}`),
    refetchInterval: (q) => (["approved", "declined", "error", "filtered", "check_declined", "failed"].includes(q.state.data?.payout.status ?? "") ? false : 2000),
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

export const STATUS_COLOR: Record<PayoutStatus, "green" | "red" | "orange" | "blue" | "grey"> = {
  pending: "grey", form_issued: "blue", checking: "orange", checked: "blue", check_declined: "red", processing: "orange",
  approved: "green", declined: "red", error: "red", filtered: "red", failed: "red",
}

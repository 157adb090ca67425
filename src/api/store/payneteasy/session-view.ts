/**
 * What the plugin's store routes (direct card step, 3-D Secure uploads) answer about a payment session: its status
 * and our public data. Card data never appears here: it was never stored.
 */
export type SessionLike = {
  id: string
  status: string
  provider_id: string
  amount?: unknown
  currency_code?: string
  data?: unknown
}

export const sessionView = (s: SessionLike) => ({
  id: s.id,
  status: s.status,
  provider_id: s.provider_id,
  amount: s.amount,
  currency_code: s.currency_code,
  data: s.data,
})

/**
 * The amount to hand back to updatePaymentSession: the stored raw amount (exact, when selected) or the amount.
 * Medusa's PaymentSessionDTO does not declare `raw_amount`, though the module returns it when selected.
 */
export const sessionAmount = <T extends { amount: unknown }>(s: T): unknown =>
  "raw_amount" in s && s.raw_amount != null ? s.raw_amount : s.amount

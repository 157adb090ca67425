/**
 * GET /admin/payneteasy/payout-settings → `{ enabled, currencies: [{ currency_code, max_amount, decimals }] }`: what
 * the payout form may offer, before anything is sent — the currencies payouts are allowed in and each one's per-payout
 * limit (the provider's `payouts` option, core/connection/payout-config.ts). `enabled: false` when no PaynetEasy
 * registration sends payouts. Admin authentication (middlewares.ts). No gateway call.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { currencyExponent } from "../../../../gateway/money"
import { payoutProvider } from "../../../../core/connection/payout-config"

export interface PayoutSettings {
  enabled: boolean
  currencies: Array<{ currency_code: string; max_amount: string; decimals: number }>
}

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const provider = await payoutProvider(req.scope)
  const settings: PayoutSettings = provider
    ? {
        enabled: true,
        currencies: provider.payouts.currencies.map((code) => ({
          currency_code: code,
          max_amount: provider.payouts.maxAmount[code],
          decimals: currencyExponent(code),
        })),
      }
    : { enabled: false, currencies: [] }
  res.json(settings)
}

/**
 * Which provider registration sends payouts, its gateway client, and the payout limits.
 *
 * Payouts use the first `pp_payneteasy_*` registration (medusa-config order of the payment module's providers, as
 * Medusa lists them) whose options have `payouts` ({ currencies, maxAmount }); without one, payouts are off. The
 * options are read and validated by the provider's own `parseOptions`; the client is built by its
 * `clientFromOptions` (the control key and private key never leave those two functions and the client).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { toMinorUnits, type PaynetEasyClient } from "../../gateway"
import { clientFromOptions, parseOptions, type PaynetEasyOptions } from "./options"
import { PROVIDER_PREFIX } from "./registration"
import { providerOptionsFor } from "./status-client"
import { pluginCallbackUrl, pluginReturnUrl } from "./plugin-urls"

export type PayoutProvider = { providerId: string; options: PaynetEasyOptions; payouts: NonNullable<PaynetEasyOptions["payouts"]> }

export async function payoutProvider(container: MedusaContainer): Promise<PayoutProvider | undefined> {
  const configModule = container.resolve("configModule")
  const providers = await container.resolve(Modules.PAYMENT).listPaymentProviders({})
  for (const p of providers) {
    if (!p.id.startsWith(PROVIDER_PREFIX)) continue
    const raw = providerOptionsFor(configModule, p.id)
    if (!raw || !raw.payouts) continue
    const options = parseOptions(raw)
    if (options.payouts) return { providerId: p.id, options, payouts: options.payouts }
  }
  return undefined
}

/** The provider registration that made a payout (its options must still be configured). */
export function payoutProviderById(container: MedusaContainer, providerId: string): PaynetEasyOptions {
  const raw = providerOptionsFor(container.resolve("configModule"), providerId)
  if (!raw) throw new Error(`PaynetEasy: no options for payment provider ${providerId} in medusa-config`)
  return parseOptions(raw)
}

export function payoutClient(options: PaynetEasyOptions): PaynetEasyClient {
  return clientFromOptions(options)
}

/** Refuses (400) a currency that is not allowed or an amount above the per-payout limit. Sends nothing. */
export function assertWithinLimits(p: PayoutProvider, amount: string, currency: string): void {
  if (!p.payouts.currencies.includes(currency)) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `currency_code: ${currency} is not allowed for payouts (allowed: ${p.payouts.currencies.join(", ")})`
    )
  }
  const limit = p.payouts.maxAmount[currency]
  if (toMinorUnits(amount, currency) > toMinorUnits(limit, currency)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `amount: ${amount} ${currency} is above the per-payout limit of ${limit} ${currency}`)
  }
}

export function callbackUrls(options: PaynetEasyOptions): { callbackUrl: string; redirectUrl: string } {
  return { callbackUrl: pluginCallbackUrl(options.backendUrl), redirectUrl: pluginReturnUrl(options.backendUrl) }
}

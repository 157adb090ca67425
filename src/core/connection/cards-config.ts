/**
 * Which provider registration holds saved cards, and a gateway client for it, for the saved-card workflows (the add-card
 * verification and its STATUS checks). Card references are tied to the merchant account that created them, so every
 * card row records its `provider_id`.
 *
 * The registration used for new cards: the plugin option `savedCardsProviderId` when set, else
 * `pp_payneteasy_payneteasy` when configured, else the first PaynetEasy registration in medusa-config.
 */
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { PaynetEasyClient } from "../../gateway"
import { clientFromOptions } from "./options"
import { configuredProviderIds, providerOptionsFor } from "./status-client"

export function cardsProviderId(container: MedusaContainer): string {
  const configModule = container.resolve<ConfigModule>("configModule")
  const plugin = (configModule?.plugins ?? []).find((p) => (typeof p === "string" ? p : p?.resolve)?.toString().includes("payneteasy"))
  const chosen = typeof plugin === "object" ? (plugin.options as { savedCardsProviderId?: unknown } | undefined)?.savedCardsProviderId : undefined
  if (typeof chosen === "string" && chosen) return chosen
  const all = configuredProviderIds(configModule)
  const id = all.includes("pp_payneteasy_payneteasy") ? "pp_payneteasy_payneteasy" : all[0]
  if (!id) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "No PaynetEasy payment provider is configured for saved cards")
  return id
}

/** Raw provider options (backend only; never returned). */
export function cardsProviderOptions(container: MedusaContainer, providerId: string): Record<string, unknown> {
  const raw = providerOptionsFor(container.resolve("configModule"), providerId)
  if (!raw) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `No options for payment provider ${providerId}`)
  return raw
}

export function cardsClient(container: MedusaContainer, providerId: string): PaynetEasyClient {
  return clientFromOptions(cardsProviderOptions(container, providerId))
}

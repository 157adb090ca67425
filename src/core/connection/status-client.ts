/**
 * A read-only gateway client for one PaynetEasy provider registration, built from that registration's own options.
 *
 * Why: once a Payment exists, the payment module offers no way to ask its provider for a STATUS (authorizePayment /
 * getPaymentStatus act on sessions), but reconciliation must follow captures and returns that were still
 * `processing` when the provider stopped waiting. The options (gateway URL, login, control key) live only in the
 * payment module's configuration; we read them from Medusa's `configModule` for the provider id
 * `pp_payneteasy_<id>` and build the client with the provider's own `clientFromOptions`. The client is used for STATUS only
 * (movesMoney = false); it is closed after each use. The options never leave this file.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import type { PaynetEasyClient } from "../../gateway"
import { clientFromOptions } from "./options"
import { isThisPluginsProvider, PROVIDER_PREFIX } from "./registration"

type ProviderEntry = { resolve?: unknown; id?: string; options?: Record<string, unknown> }

function paymentModuleConfig(configModule: any): { options?: { providers?: ProviderEntry[] } } | undefined {
  const modules = configModule?.modules
  if (!modules) return undefined
  if (Array.isArray(modules)) {
    return modules.find((m: any) => m?.key === Modules.PAYMENT || m?.resolve === "@medusajs/medusa/payment" || m?.resolve === "@medusajs/payment")
  }
  const entry = modules[Modules.PAYMENT]
  return entry && typeof entry === "object" ? entry : undefined
}

/** The ids (`pp_payneteasy_<id>`) of every registration of this plugin's provider in medusa-config, in its order. */
export function configuredProviderIds(configModule: unknown): string[] {
  const providers = paymentModuleConfig(configModule)?.options?.providers ?? []
  return providers.filter((p) => isThisPluginsProvider(p?.resolve)).map((p) => `${PROVIDER_PREFIX}${p.id || "payneteasy"}`)
}

/** The raw options of provider `pp_payneteasy_<id>` from medusa-config, or undefined when it is not configured there. */
export function providerOptionsFor(configModule: unknown, providerId: string): Record<string, unknown> | undefined {
  if (!providerId.startsWith("pp_payneteasy")) return undefined
  const providers = paymentModuleConfig(configModule)?.options?.providers ?? []
  const wantedId = providerId === "pp_payneteasy" ? undefined : providerId.slice(PROVIDER_PREFIX.length)
  const found = providers.find((p) => (p?.id || undefined) === wantedId && p?.options && typeof p.options === "object")
  // The id alone is not enough: the registration must be this plugin's provider (registration.ts).
  return found && isThisPluginsProvider(found.resolve) ? found.options : undefined
}

/** A client for STATUS calls on behalf of `providerId`; throws a plain message when the options cannot be found. */
export function statusClientFor(container: MedusaContainer, providerId: string): PaynetEasyClient {
  const raw = providerOptionsFor(container.resolve("configModule"), providerId)
  if (!raw) {
    throw new Error(`PaynetEasy: no options for payment provider ${providerId} in medusa-config (payment module providers)`)
  }
  return clientFromOptions(raw)
}

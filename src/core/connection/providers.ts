/**
 * The PaynetEasy provider registrations of this Medusa app, as the admin may see them, and gateway clients for them.
 * Options live only in medusa-config (payment module providers); they are read through the one lookup the
 * reconciliation uses (`providerOptionsFor`) and parsed with the provider's own schema, so what the admin sees is
 * exactly what the provider runs with. Nothing here returns the control key or the private key.
 * (Files under `_lib` are not routes: Medusa's route loader skips `_` folders.)
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { checkGatewayConnection, describeConfig, type DoctorCheck, type DoctorConfigView } from "../../gateway/doctor"
import type { GatewayConfig } from "../../gateway"
import { gatewayConfigOf, parseOptions } from "./options"
import { providerOptionsFor } from "./status-client"

export const PAYNETEASY_PROVIDER_PREFIX = "pp_payneteasy"

export interface ProviderView extends DoctorConfigView {
  id: string
  flow: "hosted" | "direct" | null
  capture: "manual" | "automatic" | null
  /** Whether a card payout asks PAN eligibility first (option panEligibility); null when the options cannot be read. */
  pan_eligibility: boolean | null
  /** Set when the options cannot be read or parsed (the message names the option, never its value). */
  problem: string | null
}

/** Provider ids registered with the payment module that belong to this plugin. */
export async function paynetEasyProviderIds(container: MedusaContainer): Promise<string[]> {
  const providers = await container.resolve(Modules.PAYMENT).listPaymentProviders({})
  return providers.map((p) => p.id).filter((id) => id === PAYNETEASY_PROVIDER_PREFIX || id.startsWith(`${PAYNETEASY_PROVIDER_PREFIX}_`)).sort()
}

/** The gateway configuration of one registration (secrets included: for a client only, never for a response). */
export function gatewayConfigFor(container: MedusaContainer, providerId: string): { config?: GatewayConfig; flow?: "hosted" | "direct"; capture?: "manual" | "automatic"; panEligibility?: boolean; problem?: string } {
  const raw = providerOptionsFor(container.resolve("configModule"), providerId)
  if (!raw) return { problem: `no options for ${providerId} in medusa-config (payment module providers)` }
  try {
    const o = parseOptions(raw)
    return { flow: o.flow, capture: o.capture, panEligibility: o.panEligibility, config: gatewayConfigOf(o) }
  } catch (e) {
    // parseOptions / resolvePrivateKey messages name options, never their values.
    return { problem: (e as Error).message }
  }
}

export function providerView(container: MedusaContainer, providerId: string): ProviderView {
  const { config, flow, capture, panEligibility, problem } = gatewayConfigFor(container, providerId)
  const view = config
    ? describeConfig(config)
    : { base_url: "", endpoint: null, login_masked: "", rsa_key_loaded: false, rsa_key_bits: null }
  return { id: providerId, ...view, flow: flow ?? null, capture: capture ?? null, pan_eligibility: panEligibility ?? null, problem: problem ?? null }
}

/** The live check (one STATUS for a made-up order) for one registration. */
export async function checkProvider(container: MedusaContainer, providerId: string): Promise<ProviderView & { check: DoctorCheck }> {
  const view = providerView(container, providerId)
  const { config } = gatewayConfigFor(container, providerId)
  if (!config) {
    return { ...view, check: { ok: false, verdict: "misconfigured", message: view.problem ?? "no configuration", duration_ms: 0 } }
  }
  return { ...view, check: await checkGatewayConnection(config) }
}

/**
 * Verifying a payout's callback. A payout's client_orderid is the payout id (`pnepo_…`), not a payment session, so
 * the control is checked with the control key of the provider registration that made the payout (its options as
 * medusa-config has them; the key never leaves this call). Beside verify.ts because the callback route and
 * accept.ts use both; the payout's processing lives with the payout workflows.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { verifyCallback } from "../gateway"
import { payoutProviderById } from "../gateway-adapter/payout-config"
import { PAYNETEASY_MODULE } from "../modules/payneteasy"
import type PaynetEasyModuleService from "../modules/payneteasy/service"

export const PAYOUT_CLIENT_ORDER_PREFIX = "pnepo_"

export const isPayoutClientOrderId = (clientOrderId: string | undefined | null) =>
  typeof clientOrderId === "string" && clientOrderId.trim().startsWith(PAYOUT_CLIENT_ORDER_PREFIX)

export async function verifyPayoutMessage(
  container: MedusaContainer,
  clientOrderId: string,
  params: Record<string, string>
): Promise<{ providerId: string } | { reason: "forged" | "unknown_order" }> {
  const service = container.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)
  const [payout] = await service.listPaynetEasyPayouts({ client_orderid: clientOrderId.trim() }, { take: 1, select: ["provider_id"] })
  if (!payout) return { reason: "unknown_order" }
  let key: string
  try {
    key = payoutProviderById(container, payout.provider_id).controlKey
  } catch {
    return { reason: "unknown_order" }
  }
  return verifyCallback(params, key) ? { providerId: payout.provider_id } : { reason: "forged" }
}

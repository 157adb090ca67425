/**
 * Verifying a recurring charge's callback. The gateway's charges for a recurring payment carry our create request's
 * `client-orderid` (the row id, `pnerp_…`), in the sandbox with `-c<n>` appended per charge (README: an assumption the
 * vendor documentation does not settle). So, like payouts, the control is checked with the control key of the
 * provider registration that created the recurring payment (its options as medusa-config has them; the key never
 * leaves this call). The charge's processing lives with the recurring workflows.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { verifyCallback } from "../gateway"
import { parseOptions } from "../gateway-adapter"
import { cardsProviderOptions } from "../gateway-adapter/cards-config"
import { PAYNETEASY_MODULE } from "../modules/payneteasy"
import type PaynetEasyModuleService from "../modules/payneteasy/service"

const RECURRING_CLIENT_ORDER_ID = /^(pnerp_[0-9A-Za-z]+)(?:-c\d+)?$/

export const isRecurringClientOrderId = (clientOrderId: string | undefined | null) =>
  typeof clientOrderId === "string" && RECURRING_CLIENT_ORDER_ID.test(clientOrderId.trim())

/** The recurring payment row id a charge's client_orderid belongs to. */
export const recurringRowId = (clientOrderId: string) => RECURRING_CLIENT_ORDER_ID.exec(clientOrderId.trim())?.[1]

export async function verifyRecurringMessage(
  container: MedusaContainer,
  clientOrderId: string,
  params: Record<string, string>
): Promise<{ providerId: string } | { reason: "forged" | "unknown_order" }> {
  const id = recurringRowId(clientOrderId)
  const service = container.resolve<PaynetEasyModuleService>(PAYNETEASY_MODULE)
  const [row] = id ? await service.listPaynetEasyRecurringPayments({ id }, { take: 1, select: ["provider_id"] }) : []
  if (!row?.provider_id) return { reason: "unknown_order" }
  let key: string
  try {
    key = parseOptions(cardsProviderOptions(container, row.provider_id)).controlKey
  } catch {
    return { reason: "unknown_order" }
  }
  return verifyCallback(params, key) ? { providerId: row.provider_id } : { reason: "forged" }
}

/**
 * The provider's window onto the plugin module's recurring charges (models/recurring-charge.ts), for recording a
 * renewal order's payment: Medusa runs the provider in the payment module's container, which cannot resolve other
 * modules, so the plugin module is resolved from the application's container at call time (as core/saved-cards/records.ts).
 */
import { container } from "@medusajs/framework"
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { PAYNETEASY_MODULE, paynetEasyModule } from "../../modules/payneteasy"

/** The plugin module's service in `container` (its recurring payments and charges). */
export const service = (container: MedusaContainer) => paynetEasyModule(container)

/** One item of a subscription: what each renewal order repeats. */
export type RecurringItem = { variant_id: string | null; product_id: string | null; title: string; quantity: number; unit_price: string }

export type ClaimableCharge = {
  id: string
  client_orderid: string
  gateway_order_id: string
  status: string
  amount: string
  currency_code: string
  renewal_order_id: string | null
}

/** The approved charge a renewal workflow named with its one-time token, or NOT_ALLOWED. */
export async function claimableCharge(token: string): Promise<ClaimableCharge> {
  let service: any
  try {
    service = container.resolve("payneteasy")
  } catch {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "Recurring charges need the medusa-payment-payneteasy plugin (its module) to be registered")
  }
  const [row] = /^[0-9a-f]{48}$/.test(token) ? await service.listPaynetEasyRecurringCharges({ payment_token: token }, { take: 1 }) : []
  if (!row || row.status !== "approved") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "data.recurring_charge does not name an approved recurring charge awaiting its renewal payment")
  }
  return row as ClaimableCharge
}

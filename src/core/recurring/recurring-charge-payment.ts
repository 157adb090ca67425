/**
 * Recording a renewal order's payment: the gateway already took the money (an approved charge of a recurring payment,
 * confirmed by STATUS in core/recurring/charge-callback.ts). The renewal workflow creates the payment
 * session with `data.recurring_charge` = the charge's one-time token; the session then describes that gateway order
 * (its client_orderid and orderid) and authorizePayment's STATUS finds it approved as a sale → captured. No gateway
 * call moves money here; a storefront cannot use this path (the token is never shown and must name an approved charge).
 */
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { InitiatePaymentInput, InitiatePaymentOutput } from "@medusajs/framework/types"
import { toGatewayAmount, toGatewayCurrency } from "../checkout/amounts"
import type { SessionData } from "../checkout/session-data"
import { providerKeysCleared } from "../checkout/provider-keys"
import { claimableCharge } from "./records"
import type { ProviderContext } from "../checkout/context"

export const isRecurringCharge = (data: Record<string, unknown> | undefined) =>
  data?.recurring_charge !== undefined && data?.recurring_charge !== null

export async function recordRecurringCharge(ctx: ProviderContext, input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
  const token = input.data?.recurring_charge
  if (typeof token !== "string") throw new MedusaError(MedusaError.Types.INVALID_DATA, "data.recurring_charge must be a string")
  const charge = await claimableCharge(token)
  const currency = toGatewayCurrency(input.currency_code)
  const amount = toGatewayAmount(input.amount, currency)
  if (amount !== charge.amount || currency !== charge.currency_code) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `the renewal payment (${amount} ${currency}) differs from the charge (${charge.amount} ${charge.currency_code})`)
  }
  const data: SessionData = {
    session_id: charge.id,
    clientOrderId: charge.client_orderid,
    orderId: charge.gateway_order_id,
    flow: ctx.options.flow,
    transactionType: "sale",
    amount,
    currency,
    storefrontReturnUrl: null,
  }
  // whatever else the session was created with, the provider-only keys are the charge's (checkout/provider-keys.ts)
  return {
    id: charge.client_orderid,
    data: { ...providerKeysCleared(input.data), ...data, recurring_charge_id: charge.id },
    status: PaymentSessionStatus.PENDING,
  }
}

/**
 * The amount of the Medusa Capture that capturePayment is asked to make — the one place the provider reads a payment
 * module internal.
 *
 * Why this exists: Medusa (payment module 2.21.2) passes no amount to the provider's capturePayment. It writes the
 * Capture row (with the admin's amount) before calling the provider and passes the row's id as
 * `context.idempotency_key` (payment-module.js capturePayment_ → capturePaymentFromProvider_). The provider's cradle
 * is the payment module's container, which registers the module's internal `captureService`; that is the only way
 * to learn the amount. If a Medusa upgrade removes it, this adapter fails loudly and nothing is captured.
 */
import type { BigNumberInput } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { toGatewayAmount } from "./amounts"

type CaptureService = { retrieve(id: string, config: { select: string[] }): Promise<{ raw_amount?: BigNumberInput; amount?: BigNumberInput }> }

/** The capture's amount as the gateway's decimal string in `currency`. */
export async function captureAmount(cradle: unknown, captureId: string, currency: string): Promise<string> {
  let capture: { raw_amount?: BigNumberInput; amount?: BigNumberInput } | undefined
  try {
    const service = (cradle as Record<string, unknown>).captureService as CaptureService
    capture = await service.retrieve(captureId, { select: ["id", "amount", "raw_amount"] })
  } catch (e) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `PaynetEasy capture: cannot read Medusa's capture ${captureId} to learn its amount (${(e as Error).message}); nothing was captured`
    )
  }
  const amount = capture?.raw_amount ?? capture?.amount
  if (amount === undefined || amount === null) {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `PaynetEasy capture: Medusa's capture ${captureId} has no amount; nothing was captured`)
  }
  return toGatewayAmount(amount, currency)
}

/**
 * The provider's errors, in the words an admin or storefront sees. Gateway messages are already scrubbed by the
 * client (no control key, PAN or CVV); nothing here adds request values.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { GatewayError, GatewayInputError } from "../../gateway"
import { UnresolvedLostReply } from "../connection/gateway-ops"

/** The gateway said no to capture / return / void (nothing left, settled, already voided, declined): a 400 for the admin. */
export class GatewayRefusal extends MedusaError {
  constructor(op: string, reason: string) {
    super(MedusaError.Types.NOT_ALLOWED, `PaynetEasy ${op} refused: ${reason}`)
  }
}

/**
 * A capture / return / void whose reply was lost and whose outcome STATUS cannot pin down: it may or may not have
 * moved money. Retrying blindly could move it twice, so the admin must look at the order at the gateway first.
 */
export class IndeterminateFollowUp extends MedusaError {
  constructor(op: string, orderId: string | undefined, why: string) {
    super(
      MedusaError.Types.UNEXPECTED_STATE,
      `PaynetEasy ${op}: the gateway's answer was lost and ${why}. It is unknown whether money moved: check order ` +
        `${orderId ?? "(unknown)"} in the PaynetEasy back office before retrying`
    )
  }
}

export function wrap(op: string, e: unknown): Error {
  if (e instanceof MedusaError) return e
  if (e instanceof GatewayInputError) {
    return new MedusaError(MedusaError.Types.INVALID_DATA, `PaynetEasy ${op}: ${e.message}`)
  }
  if (e instanceof UnresolvedLostReply) {
    // Not "failed": the request may have been processed (its reply was lost and STATUS could not resolve it after),
    // and nothing is sent again.
    return new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `PaynetEasy ${op}: outcome unknown, the gateway may have processed it (${e.message}); nothing was sent again`
    )
  }
  if (e instanceof GatewayError) {
    // The gateway failed or answered nonsense: not the caller's fault, so UNEXPECTED_STATE (a 500 whose message
    // Medusa shows, unlike a plain Error's "An unknown error occurred").
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `PaynetEasy ${op} failed: ${e.gatewayMessage || e.message}`)
  }
  return e instanceof Error ? e : new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `PaynetEasy ${op} failed`)
}

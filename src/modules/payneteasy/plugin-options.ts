/**
 * The plugin's own options (medusa-config `plugins[].options`) that need checking: the module's loader reads them when
 * Medusa boots (an invalid one stops the boot with a message naming it, as the providers' options do), and the
 * service reads them again for its getters. None of them is a gateway credential.
 */
import { z } from "zod"

/**
 * How long callback processing waits after the route has recorded a callback, in ms. Medusa's own payment webhooks
 * wait 5 s (`webhook_delay`) to avoid the same race: the gateway calls back while the storefront is still completing
 * the cart, and processing that starts at once completes it first, so the storefront's own completion waits for the
 * cart's lock. A second covers a storefront's completion call that follows the gateway's answer (bench "checkout"),
 * and takes the processing of a burst of callbacks off the cores that answer them (bench "callbacks/s").
 */
export const DEFAULT_CALLBACK_PROCESSING_DELAY_MS = 1_000

/**
 * At most 30 s: the reconciliation tick takes over a row left `received` for a minute (workflows/payneteasy/
 * reconcile.ts), and a longer delay would have the tick and the delayed event process the same callbacks.
 */
export const MAX_CALLBACK_PROCESSING_DELAY_MS = 30_000

const delaySchema = z
  .number({ error: "must be a number of milliseconds" })
  .int({ error: "must be a whole number of milliseconds" })
  .min(0, { error: "must be 0 (process at once) or more" })
  .max(MAX_CALLBACK_PROCESSING_DELAY_MS, {
    error: `must be at most ${MAX_CALLBACK_PROCESSING_DELAY_MS} (the reconciliation tick retries a callback left unprocessed for a minute)`,
  })

/** `callbackProcessingDelayMs`, or its default; throws an Error naming the option when it is invalid. */
export function callbackProcessingDelayMs(options: { callbackProcessingDelayMs?: unknown } | undefined): number {
  const value = options?.callbackProcessingDelayMs
  if (value === undefined) return DEFAULT_CALLBACK_PROCESSING_DELAY_MS
  const parsed = delaySchema.safeParse(value)
  if (!parsed.success) {
    throw new Error(`medusa-payment-payneteasy option callbackProcessingDelayMs ${parsed.error.issues[0]?.message} (got ${JSON.stringify(value)})`)
  }
  return parsed.data
}

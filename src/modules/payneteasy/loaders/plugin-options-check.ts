/**
 * Module loader: checks the plugin's own options when Medusa boots (plugin-options.ts), so a wrong
 * `callbackProcessingDelayMs` stops the boot with a message naming it instead of surfacing on the first callback.
 */
import type { LoaderOptions } from "@medusajs/framework/types"
import { callbackProcessingDelayMs } from "../plugin-options"

export default async function pluginOptionsCheck({ options }: LoaderOptions<{ callbackProcessingDelayMs?: unknown }>): Promise<void> {
  callbackProcessingDelayMs(options)
}

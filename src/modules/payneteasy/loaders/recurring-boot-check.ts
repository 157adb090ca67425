/**
 * Module loader: schedules the recurring-payments boot check (core/recurring/boot-check.ts) for just after startup, on the
 * application container (a module's own container cannot see the configuration of the payment module's providers).
 */
import { container as appContainer } from "@medusajs/framework"
import type { LoaderOptions } from "@medusajs/framework/types"
import { warnAboutKeylessRecurring } from "../../../core/recurring/boot-check"

export default async function recurringBootCheck({ options }: LoaderOptions<{ recurringEnabled?: boolean }>): Promise<void> {
  setTimeout(() => void warnAboutKeylessRecurring(appContainer, options?.recurringEnabled === true), 2_000).unref()
}

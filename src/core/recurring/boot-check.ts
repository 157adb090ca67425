/**
 * The boot-time warning issue 14 asks for: recurring payments need a v4 call signed RSA-SHA256, so when subscription
 * products exist (metadata.payneteasy_recurring on a product or variant) or the plugin option `recurringEnabled` is set,
 * every PaynetEasy registration without a `privateKey` is named in a warning at startup — orders paid through it will
 * get no recurring payment (they are recorded "not set up" with that reason). Run once from the module's loader, after
 * the application container is complete; it never throws and never prints a key.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { configuredProviderIds, providerOptionsFor } from "../connection/status-client"
import { RECURRING_METADATA_KEY } from "./schedule"

/** The warning lines for this configuration (pure: what the boot check prints). */
export function keylessWarnings(wanted: { subscriptionProducts: boolean; recurringEnabled: boolean }, keyless: string[]): string[] {
  if (!wanted.subscriptionProducts && !wanted.recurringEnabled) return []
  const why = wanted.subscriptionProducts ? "subscription products exist (metadata.payneteasy_recurring)" : "the plugin option recurringEnabled is set"
  return keyless.map((id) =>
    `PaynetEasy: ${why}, but payment provider ${id} has no privateKey option: create-recurring-payment is a v4 call signed RSA-SHA256, so subscription orders paid through ${id} will get no recurring payment (add privateKey in medusa-config.ts)`)
}

async function subscriptionProductsExist(container: MedusaContainer): Promise<boolean> {
  const knex = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  const sql = (table: string) => `select 1 from ${table} where deleted_at is null and metadata ? '${RECURRING_METADATA_KEY}' limit 1`
  const [p, v] = await Promise.all([knex.raw(sql("product")), knex.raw(sql("product_variant"))])
  return p.rows.length > 0 || v.rows.length > 0
}

export async function warnAboutKeylessRecurring(container: MedusaContainer, recurringEnabled: boolean): Promise<void> {
  try {
    const configModule = container.resolve("configModule")
    const keyless = configuredProviderIds(configModule).filter((id) => !providerOptionsFor(configModule, id)?.privateKey)
    if (!keyless.length) return
    const subscriptionProducts = await subscriptionProductsExist(container)
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    for (const line of keylessWarnings({ subscriptionProducts, recurringEnabled }, keyless)) logger.warn(line)
  } catch {
    // a check that cannot run (no database yet, a migration pending) must never stop the application
  }
}
